import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Command } from 'commander';
import { buildApp, createDeps, type Deps } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { migrate, openDatabase } from './kernel/db/index.js';
import { HttpError } from './kernel/http/index.js';
import { startWorkers } from './workers.js';

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

async function withDeps<T>(work: (deps: Deps) => Promise<T>): Promise<T> {
  const deps = await createDeps(configOrExit());
  try {
    return await work(deps);
  } finally {
    await deps.close();
  }
}

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`svc: stop failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
    });
  }
}

const program = new Command('svc').description('Identity and access service').showHelpAfterError();

program
  .command('serve')
  .description('Serve the API (and run the background workers unless --no-workers)')
  .option('--no-workers', 'serve the API only; run `svc worker` elsewhere')
  .action(async (options: { workers: boolean }) => {
    const config = configOrExit();
    const deps = await createDeps(config);
    const app = await buildApp(deps);
    const workers = options.workers ? startWorkers(deps) : undefined;
    await app.listen({ host: config.host, port: config.port });
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
    deps.logger.info(
      `svc serving ${config.baseUrl} on ${config.host}:${config.port} with ${where}. ` +
        'Next: `npx svc bootstrap --email you@example.com --password … --organization "Your org"`, ' +
        `then sign in at POST ${config.baseUrl}/api/v1/auth/login; API reference at ${config.baseUrl}/api/v1/openapi.json`,
    );
    onSignals(async () => {
      // The server drains its requests while the workers finish their runs; then the work left after answers
      // and the connections (deps.close): nothing of this node queries the database once the stop resolves.
      await Promise.all([app.close(), workers?.stop()]);
      await deps.close();
    });
  });

program
  .command('worker')
  .description('Run the background workers only')
  .action(async () => {
    const deps = await createDeps(configOrExit());
    const workers = startWorkers(deps);
    deps.logger.info('svc worker running');
    onSignals(async () => {
      await workers.stop();
      await deps.close();
    });
  });

program
  .command('migrate')
  .description('Apply database migrations')
  .action(async () => {
    const config = configOrExit();
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      schema: config.databaseSchema,
      dataDir: config.dataDir,
    });
    try {
      const applied = await migrate(database);
      console.error(applied.length ? `svc: applied ${applied.join(', ')}` : 'svc: database is up to date');
    } finally {
      await database.close();
    }
  });

program
  .command('keys')
  .description('Signing keys')
  .command('rotate')
  .description('Promote the staged key to active and stage a new one (tokens of the previous key still verify)')
  .action(() =>
    withDeps(async (deps) => {
      const rotated = await deps.keyring.rotate();
      console.error(
        `svc: active key ${rotated.active}; previous ${rotated.previous ?? 'none'}; staged ${rotated.next}`,
      );
    }),
  );

program
  .command('bootstrap')
  .description('Create the platform-operator organization and its owner on a fresh install')
  .requiredOption('--email <email>', 'owner email')
  .requiredOption('--password <password>', 'owner password (12 to 128 characters)')
  .requiredOption('--organization <name>', 'organization name')
  .action((options: { email: string; password: string; organization: string }) =>
    withDeps(async (deps) => {
      try {
        const created = await deps.accounts.bootstrapPlatform({
          email: options.email,
          password: options.password,
          organizationName: options.organization,
        });
        console.error(
          `svc: created organization "${created.slug}" (${created.tenantId}) owned by ${options.email}; ` +
            `sign in with tenant_slug "${created.slug}"`,
        );
      } catch (error) {
        if (error instanceof HttpError) {
          console.error(`svc: ${error.detail}`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
    }),
  );

program
  .command('openapi')
  .description('Write the OpenAPI document without serving')
  .option('--out <file>', 'write to this file instead of standard output')
  .action(async (options: { out?: string }) => {
    // An in-memory database: the document needs the routes, not data.
    const config = { ...configOrExit(), databaseUrl: undefined, databaseSchema: 'public', logLevel: 'silent' };
    config.secretKey = randomBytes(32);
    const pglite = new PGlite();
    const deps = await createDeps(config, { pglite });
    try {
      const app = await buildApp(deps);
      const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
      await app.close();
      if (options.out) writeFileSync(options.out, document);
      else process.stdout.write(document);
    } finally {
      await deps.close();
      await pglite.close();
    }
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

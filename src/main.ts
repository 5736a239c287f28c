import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { buildApp, createDeps, type Deps } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import {
  assertPrivateDirectory,
  type ControlCommand,
  type ControlReply,
  controlSocketPath,
  sendControlCommand,
  serveControlSocket,
} from './control-socket.js';
import { databaseChecks, failure, formatChecks, serviceChecks } from './doctor.js';
import { DataDirLockedError } from './kernel/db/data-dir-lock.js';
import { openDatabase } from './kernel/db/index.js';
import { openApiDocument } from './openapi.js';
import { bootstrapFromEnvironment, runOperatorCommand } from './operator-commands.js';
import { startWorkers } from './workers.js';

/** How long a CLI command waits for the owner of an embedded DATA_DIR to start serving its control socket. */
const OWNER_START_WAIT_MS = 60_000;

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

async function withDeps<T>(config: Config, work: (deps: Deps) => Promise<T>): Promise<T> {
  const deps = await createDeps(config);
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

/**
 * A command that needs the database. On PostgreSQL it runs here, beside any running nodes (migrations, key
 * rotation and the bootstrap each serialize under an advisory lock). On the embedded database only one process
 * may open DATA_DIR: the command goes to the server that owns it, over its control socket; with no owner it runs
 * here. While the owner is still starting (its socket is not served yet) or is another command, it waits.
 */
async function databaseCommand(command: ControlCommand): Promise<void> {
  const config = configOrExit();
  const reply = await runOnDatabase(config, command);
  for (const line of reply.lines) console.error(`svc: ${line}`);
  process.exitCode = reply.exitCode;
}

async function runOnDatabase(
  config: Config,
  command: ControlCommand,
  here: () => Promise<ControlReply> = () => withDeps(config, (deps) => runOperatorCommand(deps, command)),
): Promise<ControlReply> {
  if (config.databaseUrl) return here();
  const giveUpAt = Date.now() + OWNER_START_WAIT_MS;
  for (;;) {
    const handed = await sendControlCommand(config.dataDir, command);
    if (handed) return handed;
    try {
      return await here();
    } catch (error) {
      if (!(error instanceof DataDirLockedError) || Date.now() > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** `svc doctor`: reads, never repairs; on the embedded database a running server answers for it. */
async function doctor(): Promise<string[]> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return formatChecks([failure('configuration', error)]);
  }
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${config.dataDir}`;
  const lines = formatChecks([{ name: 'configuration', status: 'ok', detail: `${config.env}, ${where}` }]);
  lines.push(...(await doctorDatabase(config)));
  lines.push(...formatChecks(await serviceChecks(config)));
  return lines;
}

async function doctorDatabase(config: Config): Promise<string[]> {
  try {
    if (!config.databaseUrl) {
      if (!existsSync(join(config.dataDir, 'pgdata'))) {
        const detail = `none yet in ${config.dataDir}; \`svc serve\` creates it`;
        return formatChecks([{ name: 'database', status: 'ok', detail }]);
      }
      assertPrivateDirectory(config.dataDir);
    }
    const reply = await runOnDatabase(config, { name: 'doctor' }, async () => {
      const database = await openDatabase({
        databaseUrl: config.databaseUrl,
        schema: config.databaseSchema,
        dataDir: config.dataDir,
      });
      try {
        return { exitCode: 0, lines: formatChecks(await databaseChecks(database, config)) };
      } finally {
        await database.close();
      }
    });
    return reply.lines;
  } catch (error) {
    return formatChecks([failure('database', error)]);
  }
}

/** The owner of an embedded DATA_DIR takes the CLI's database commands over its control socket. */
async function controlSocketOf(deps: Deps): Promise<{ close(): Promise<void> } | undefined> {
  if (deps.database.kind !== 'pglite') return undefined;
  return serveControlSocket(deps.config.dataDir, (command) => {
    deps.logger.info({ command: command.name }, 'control socket: running a CLI command');
    return runOperatorCommand(deps, command);
  });
}

const program = new Command('svc').description('Identity and access service').showHelpAfterError();

program
  .command('serve')
  .description('Serve the API (and run the background workers unless --no-workers)')
  .option('--no-workers', 'serve the API only; run `svc worker` elsewhere')
  .action(async (options: { workers: boolean }) => {
    const config = configOrExit();
    // Before the seconds the embedded database takes to start: its control socket needs a private DATA_DIR, and a
    // path short enough for a Unix socket.
    if (!config.databaseUrl && existsSync(config.dataDir)) assertPrivateDirectory(config.dataDir);
    if (!config.databaseUrl) controlSocketPath(config.dataDir);
    const deps = await createDeps(config);
    await bootstrapFromEnvironment(deps);
    const app = await buildApp(deps);
    const workers = options.workers ? startWorkers(deps) : undefined;
    await app.listen({ host: config.host, port: config.port });
    const control = await controlSocketOf(deps);
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
    deps.logger.info(
      `svc serving ${config.baseUrl} on ${config.host}:${config.port} with ${where}. ` +
        'Next: `npx svc bootstrap --email you@example.com --password … --organization "Your org"`, ' +
        `then sign in at POST ${config.baseUrl}/api/v1/auth/login; API reference at ${config.baseUrl}/api/v1/openapi.json`,
    );
    onSignals(async () => {
      // The server drains its requests while the workers finish their runs; then the work left after answers
      // and the connections (deps.close): nothing of this node queries the database once the stop resolves.
      await control?.close();
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
    const control = await controlSocketOf(deps);
    deps.logger.info('svc worker running');
    onSignals(async () => {
      await control?.close();
      await workers.stop();
      await deps.close();
    });
  });

program
  .command('migrate')
  .description('Apply database migrations')
  .action(() => databaseCommand({ name: 'migrate' }));

program
  .command('keys')
  .description('Signing keys')
  .command('rotate')
  .description('Promote the staged key to active and stage a new one (tokens of the previous key still verify)')
  .action(() => databaseCommand({ name: 'keys-rotate' }));

program
  .command('bootstrap')
  .description('Create the platform-operator organization and its owner on a fresh install')
  .requiredOption('--email <email>', 'owner email')
  .requiredOption('--password <password>', 'owner password (12 to 128 characters)')
  .requiredOption('--organization <name>', 'organization name')
  .action((options: { email: string; password: string; organization: string }) =>
    databaseCommand({ name: 'bootstrap', ...options }),
  );

program
  .command('doctor')
  .description('Check configuration, database, keys, SMTP and Redis; exits non-zero when something is wrong')
  .action(async () => {
    const lines = await doctor();
    process.stdout.write(`${lines.join('\n')}\n`);
    if (lines.some((line) => line.startsWith('fail'))) process.exitCode = 1;
  });

program
  .command('openapi')
  .description('Write the OpenAPI document without serving')
  .option('--out <file>', 'write to this file instead of standard output')
  .action(async (options: { out?: string }) => {
    const document = `${JSON.stringify(await openApiDocument(configOrExit()), null, 2)}\n`;
    if (options.out) writeFileSync(options.out, document);
    else process.stdout.write(document);
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

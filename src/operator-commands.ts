import { readFileSync } from 'node:fs';
import type { Deps } from './app.js';
import type { ControlCommand, ControlReply } from './control-socket.js';
import { databaseChecks, formatChecks } from './doctor.js';
import { migrate } from './kernel/db/index.js';
import { HttpError } from './kernel/http/index.js';

/**
 * The CLI's database commands, run on an open installation: by the CLI itself (PostgreSQL, or an embedded data
 * directory no server owns) or by the server that owns the embedded data directory, for a CLI that handed them
 * over its control socket. One implementation, so both paths answer alike.
 */
export async function runOperatorCommand(deps: Deps, command: ControlCommand): Promise<ControlReply> {
  switch (command.name) {
    case 'bootstrap':
      try {
        const created = await deps.accounts.bootstrapPlatform({
          email: command.email,
          password: command.password,
          organizationName: command.organization,
        });
        return {
          exitCode: 0,
          lines: [
            `created organization "${created.slug}" (${created.tenantId}) owned by ${command.email}; ` +
              `sign in with tenant_slug "${created.slug}"`,
          ],
        };
      } catch (error) {
        if (error instanceof HttpError) return { exitCode: 1, lines: [error.detail] };
        throw error;
      }
    case 'migrate': {
      const applied = await migrate(deps.database);
      return { exitCode: 0, lines: [applied.length ? `applied ${applied.join(', ')}` : 'database is up to date'] };
    }
    case 'keys-rotate': {
      const rotated = await deps.keyring.rotate();
      return {
        exitCode: 0,
        lines: [`active key ${rotated.active}; previous ${rotated.previous ?? 'none'}; staged ${rotated.next}`],
      };
    }
    case 'doctor': {
      const checks = await databaseChecks(deps.database, deps.config);
      return { exitCode: checks.some((c) => c.status === 'fail') ? 1 : 0, lines: formatChecks(checks) };
    }
    default:
      return { exitCode: 2, lines: [`unknown command ${(command as { name: string }).name}`] };
  }
}

/**
 * First-admin bootstrap by environment (containers have no terminal for `svc bootstrap`): SVC_BOOTSTRAP_EMAIL,
 * SVC_BOOTSTRAP_PASSWORD_FILE and SVC_BOOTSTRAP_ORGANIZATION create the platform-operator organization and its
 * owner at start, and are ignored once an operator organization exists. The password comes from a file (a
 * mounted secret) so it is never in the environment, which `ps e` and crash reports show.
 */
export async function bootstrapFromEnvironment(deps: Deps): Promise<void> {
  const wanted = deps.config.bootstrap;
  if (!wanted) return;
  const existing = await deps.transactions.system((tx) => deps.organizations.platformOperator(tx));
  if (existing) {
    deps.logger.info('SVC_BOOTSTRAP_*: a platform-operator organization exists; ignored');
    return;
  }
  let password: string;
  try {
    password = readFileSync(wanted.passwordFile, 'utf8').replace(/\r?\n$/, '');
  } catch {
    throw new Error(`SVC_BOOTSTRAP_PASSWORD_FILE: cannot read ${wanted.passwordFile}`);
  }
  const reply = await runOperatorCommand(deps, {
    name: 'bootstrap',
    email: wanted.email,
    password,
    organization: wanted.organization,
  });
  if (reply.exitCode === 0) deps.logger.info(`SVC_BOOTSTRAP_*: ${reply.lines.join(' ')}`);
  // Another node of the installation won the race: that is the organization asked for.
  else if (reply.lines[0]?.includes('already exists')) deps.logger.info('SVC_BOOTSTRAP_*: created by another node');
  else throw new Error(`SVC_BOOTSTRAP_*: ${reply.lines.join(' ')}`);
}

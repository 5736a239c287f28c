import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/app.js';
import { rows } from '../../src/kernel/db/index.js';
import { bootstrapFromEnvironment } from '../../src/operator-commands.js';
import { request } from '../support/http.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

const secrets = mkdtempSync(join(tmpdir(), 'svc-first-admin-'));
const passwordFile = join(secrets, 'password');
writeFileSync(passwordFile, 'a long passphrase from a secret\n', { mode: 0o600 });

let svc: TestService;
beforeAll(async () => {
  svc = await startService({
    SVC_BOOTSTRAP_EMAIL: 'admin@example.com',
    SVC_BOOTSTRAP_PASSWORD_FILE: passwordFile,
    SVC_BOOTSTRAP_ORGANIZATION: 'Env Ops',
  });
});
afterAll(async () => {
  await svc?.close();
  rmSync(secrets, { recursive: true, force: true });
});

function withBootstrap(deps: Deps, bootstrap: Partial<NonNullable<Deps['config']['bootstrap']>>): Deps {
  return { ...deps, config: { ...deps.config, bootstrap: { ...deps.config.bootstrap!, ...bootstrap } } };
}

const operatorOrganizations = async () =>
  Number(
    (
      await rows<{ n: string | number }>(
        svc.deps.database.db,
        sql`select count(*) as n from tenants where is_platform_operator`,
      )
    )[0]!.n,
  );

describe('first admin by environment (SVC_BOOTSTRAP_*)', () => {
  it('stops the start with one line naming the variables when the password file is unreadable or too weak', async () => {
    await expect(
      bootstrapFromEnvironment(withBootstrap(svc.deps, { passwordFile: join(secrets, 'none') })),
    ).rejects.toThrow(`SVC_BOOTSTRAP_PASSWORD_FILE: cannot read ${join(secrets, 'none')}`);
    const weak = join(secrets, 'weak');
    writeFileSync(weak, 'short\n');
    await expect(bootstrapFromEnvironment(withBootstrap(svc.deps, { passwordFile: weak }))).rejects.toThrow(
      /^SVC_BOOTSTRAP_\*: .*12/,
    );
    expect(await operatorOrganizations()).toBe(0);
  });

  it('nodes starting together create one operator organization, whose owner signs in', async () => {
    const second = await startSecondNode(svc);
    try {
      await Promise.all([
        bootstrapFromEnvironment(svc.deps),
        bootstrapFromEnvironment(second.deps),
        bootstrapFromEnvironment(svc.deps),
      ]);
    } finally {
      await second.close();
    }
    expect(await operatorOrganizations()).toBe(1);
    const login = await request(`${svc.url}/api/v1/auth/login`, {
      json: { email: 'admin@example.com', password: 'a long passphrase from a secret', tenant_slug: 'env-ops' },
    });
    expect(login.status, login.text).toBe(200);
  });

  it('is ignored once an operator organization exists', async () => {
    const other = withBootstrap(svc.deps, { email: 'late@example.com', organization: 'Late Ops' });
    await bootstrapFromEnvironment(other);
    expect(await operatorOrganizations()).toBe(1);
  });
});

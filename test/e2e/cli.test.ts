import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { type NodeProcess, removeProcessStorage, startNodeProcess } from '../support/node-process.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const schema = `cli_${randomBytes(5).toString('hex')}`;
// Vitest puts Vite's BASE_URL ("/") into process.env; the CLI must not inherit it.
const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
const env = {
  ...inherited,
  SVC_ENV: 'development',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: schema } : {}),
};

async function svc(args: string[], extraEnv: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { ...env, ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let server: NodeProcess | undefined;
afterAll(async () => {
  await server?.stop();
  await removeProcessStorage(dataDir, schema);
});

// Each test starts CLI processes that open the embedded database (seconds each, more on a busy 2-core machine).
const SPAWNS_DATABASE = 120_000;

describe('svc CLI', () => {
  it(
    'bootstrap creates the platform-operator organization once, then refuses',
    async () => {
      const first = await svc([
        'bootstrap',
        '--email',
        'ops@example.com',
        '--password',
        'a long operator passphrase',
        '--organization',
        'Platform Ops',
      ]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('created organization "platform-ops"');
      const second = await svc([
        'bootstrap',
        '--email',
        'other@example.com',
        '--password',
        'another long passphrase',
        '--organization',
        'Second',
      ]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('platform-operator organization already exists');
    },
    SPAWNS_DATABASE,
  );

  it(
    'migrate reports an up-to-date database; keys rotate promotes the staged key',
    async () => {
      const migrate = await svc(['migrate']);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stderr).toContain('database is up to date');
      const rotate = await svc(['keys', 'rotate']);
      expect(rotate.code, rotate.stderr).toBe(0);
      expect(rotate.stderr).toMatch(/active key \S+; previous \S+; staged \S+/);
    },
    SPAWNS_DATABASE,
  );

  it(
    'serve answers over HTTP and the bootstrapped owner signs in',
    async () => {
      server = await startNodeProcess(env, { readyTimeoutMs: 90_000, args: ['--no-workers'] });
      // The hint is logged just after the server starts listening.
      for (let waited = 0; !server.stdout().includes('svc serving') && waited < 5_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(server.stdout()).toContain('svc bootstrap');
      const login = await request<{ access_token: string }>(`${server.url}/api/v1/auth/login`, {
        json: { email: 'ops@example.com', password: 'a long operator passphrase', tenant_slug: 'platform-ops' },
      });
      expect(login.status).toBe(200);
      const me = await request(`${server.url}/api/v1/me`, { token: login.body.access_token });
      expect(me.body).toMatchObject({ role: 'owner', is_owner: true });
      await server.stop();
      expect(await server.exited).toBe(0);
      server = undefined;
    },
    SPAWNS_DATABASE,
  );

  it(
    'writes the OpenAPI document without serving',
    async () => {
      const out = join(dataDir, 'openapi.json');
      const result = await svc(['openapi', '--out', out]);
      expect(result.code, result.stderr).toBe(0);
      const document = JSON.parse(readFileSync(out, 'utf8'));
      expect(document.paths['/api/v1/auth/signup'].post).toBeDefined();
    },
    SPAWNS_DATABASE,
  );

  it(
    'refuses bad configuration with one line naming the variable',
    async () => {
      const bad = await svc(['serve'], { MFA_ENCRYPTION_KEY: 'not-a-key' });
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: MFA_ENCRYPTION_KEY: /)]);
      const unreachable = await svc(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^svc: DATABASE_URL: cannot connect/),
      ]);
    },
    SPAWNS_DATABASE,
  );
});

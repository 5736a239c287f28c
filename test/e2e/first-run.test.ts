import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { newAccount, request } from '../support/http.js';

/**
 * The first run of a new user (issue 18): the built `svc` CLI on a fresh embedded data directory, with the
 * README's first steps run as written while the server runs, restarts (graceful and SIGKILL), and a second
 * server on the same directory. Real processes throughout. The embedded database only: on PostgreSQL the CLI
 * runs beside the nodes directly (test/e2e/cli.test.ts).
 */

const run = promisify(execFile);
// The CLI must not inherit Vite's BASE_URL ("/") nor the PostgreSQL and Redis of a PostgreSQL run.
const { BASE_URL: _vite, DATABASE_URL: _pg, REDIS_URL: _redis, ...inherited } = process.env;
const readme = readFileSync('README.md', 'utf8');
const dirs: string[] = [];
const running = new Set<ChildProcess>();

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-first-run-'));
  dirs.push(dir);
  return dir;
}

function envFor(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Sign-ups open and client addresses from X-Forwarded-For, so a stream of writes is not throttled per IP.
  const base = { SVC_ENV: 'development', LOG_LEVEL: 'info', PUBLIC_SIGNUP_ENABLED: 'true', TRUST_PROXY: '1' };
  return { ...inherited, ...base, DATA_DIR: dataDir, ...extra };
}

interface Server {
  url: string;
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** `svc serve` as `npm start` runs it; resolves once it serves, or once it exits (a refusal). */
async function startServer(dataDir: string, extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/svc.cjs', 'serve'], {
    env: envFor(dataDir, { PORT: String(port), ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!output.includes('svc serving') && !gone) await new Promise((resolve) => setTimeout(resolve, 100));
  return { url: `http://127.0.0.1:${port}`, process: child, output: () => output, exited };
}

async function stop(server: Server, signal: NodeJS.Signals): Promise<number | null> {
  server.process.kill(signal);
  return server.exited;
}

async function signIn(url: string, body: { email: string; password: string; tenant_slug: string }) {
  return request<{ access_token: string }>(`${url}/api/v1/auth/login`, { json: body });
}

/** A command of the README, run through the shell as written, with `npx svc` being this checkout's CLI. */
async function runReadmeCommand(line: string, dataDir: string) {
  const command = line.replace(/^npx svc /, `"${process.execPath}" bin/svc.cjs `);
  try {
    const { stdout, stderr } = await run('sh', ['-c', command], { env: envFor(dataDir), timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function svc(args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/svc.cjs', ...args], {
      env: envFor(dataDir),
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const readmeBootstrap = readme
  .split('\n')
  .map((line) => line.trim())
  .find((line) => line.startsWith('npx svc bootstrap'))!;
const readmeSignIn = JSON.parse(/auth\/login .*\n.*-d '(\{[^']+\})'/.exec(readme)![1]!) as {
  email: string;
  password: string;
  tenant_slug: string;
};

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// A server start on a fresh data directory takes 10-30 s (database creation, migrations, keys); on a machine busy
// with other test files, several times that.
const STARTS_SERVERS = 360_000;

describe.runIf(!process.env.DATABASE_URL)('first run on the embedded database', () => {
  const dataDir = freshDataDir();
  let server: Server | undefined;

  beforeAll(async () => {
    // `npx svc` runs the built CLI (bin/svc.cjs loads dist/): build this checkout, as `npm start` does.
    const tsc = ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'];
    await run(process.execPath, tsc, { timeout: 120_000 });
  }, 150_000);

  it(
    "the README's first steps while the server runs: bootstrap from another process, sign in at once, restart, sign in again",
    async () => {
      server = await startServer(dataDir);
      expect(server.output()).toContain('svc serving');
      const bootstrap = await runReadmeCommand(readmeBootstrap, dataDir);
      expect(bootstrap.code, bootstrap.stderr).toBe(0);
      expect(bootstrap.stderr).toContain(`created organization "${readmeSignIn.tenant_slug}"`);
      const first = await signIn(server.url, readmeSignIn);
      expect(first.status, first.text).toBe(200);
      const me = await request(`${server.url}/api/v1/me`, { token: first.body.access_token });
      expect(me.body).toMatchObject({ role: 'owner', is_owner: true });
      // The control socket the command went through is the owner's only.
      expect(statSync(join(dataDir, 'svc.sock')).mode & 0o777).toBe(0o600);

      expect(await stop(server, 'SIGTERM')).toBe(0);
      expect(existsSync(join(dataDir, 'svc.lock'))).toBe(false);
      expect(existsSync(join(dataDir, 'svc.sock'))).toBe(false);

      server = await startServer(dataDir);
      expect(server.output()).toContain('svc serving');
      expect((await signIn(server.url, readmeSignIn)).status).toBe(200);
      const again = await runReadmeCommand(readmeBootstrap, dataDir);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe('svc: A platform-operator organization already exists');
    },
    STARTS_SERVERS,
  );

  it(
    'a second server on the same data directory refuses with one line; the first is unharmed',
    async () => {
      const second = await startServer(dataDir);
      expect(await second.exited).toBe(1);
      const lines = second.output().trim().split('\n');
      expect(lines).toEqual([
        expect.stringMatching(/^svc: DATA_DIR \S+ is in use by `svc serve` \(pid \d+\): .*Stop that process first/),
      ]);
      expect(lines[0]).toContain(`(pid ${server!.process.pid})`);
      expect((await signIn(server!.url, readmeSignIn)).status).toBe(200);
      const rotate = await svc(['keys', 'rotate'], dataDir);
      expect(rotate.code, rotate.stderr).toBe(0);
      const doctor = await svc(['doctor'], dataDir);
      expect(doctor.code, doctor.stdout).toBe(0);
      expect(doctor.stdout).toMatch(/^ok {4}database: embedded in \S+, migrations current$/m);
      expect(doctor.stdout).toMatch(/^ok {4}keys: active signing key opens with SECRET_KEY/m);
    },
    STARTS_SERVERS,
  );

  it(
    'a server killed with SIGKILL during a stream of writes restarts with every acknowledged write',
    async () => {
      const acknowledged: Array<ReturnType<typeof newAccount>> = [];
      let killed = false;
      let sent = 0;
      const stream = async () => {
        while (!killed) {
          const account = newAccount('stream');
          sent += 1;
          const forwardedFor = `198.51.100.${sent % 250}`;
          try {
            const res = await request(`${server!.url}/api/v1/auth/signup`, {
              json: account,
              headers: { 'x-forwarded-for': forwardedFor },
            });
            if (res.status === 201) acknowledged.push(account);
          } catch {
            // the connection died with the server: not acknowledged
          }
        }
      };
      const streams = [stream(), stream(), stream()];
      while (acknowledged.length < 8) await new Promise((resolve) => setTimeout(resolve, 20));
      server!.process.kill('SIGKILL');
      await server!.exited;
      killed = true;
      await Promise.all(streams);
      expect(sent).toBeGreaterThan(acknowledged.length);

      // The stale lock of the killed server is taken over. The environment asks for a first admin, which is
      // ignored: an operator organization exists.
      const passwordFile = join(dataDir, 'bootstrap-password');
      writeFileSync(passwordFile, 'another long passphrase\n', { mode: 0o600 });
      server = await startServer(dataDir, {
        SVC_BOOTSTRAP_EMAIL: 'late@example.com',
        SVC_BOOTSTRAP_PASSWORD_FILE: passwordFile,
        SVC_BOOTSTRAP_ORGANIZATION: 'Late Ops',
      });
      expect(server.output()).toContain('svc serving');
      expect(server.output()).toContain('SVC_BOOTSTRAP_*: a platform-operator organization exists; ignored');
      for (const account of acknowledged) {
        const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
        const res = await signIn(server.url, { email: account.email, password: account.password, tenant_slug: slug });
        expect(res.status, account.email).toBe(200);
      }
      expect((await signIn(server.url, readmeSignIn)).status).toBe(200);
      expect(await stop(server, 'SIGTERM')).toBe(0);
    },
    STARTS_SERVERS,
  );

  it(
    'creates the first admin from the environment at first start',
    async () => {
      const dir = freshDataDir();
      const passwordFile = join(dir, 'bootstrap-password');
      writeFileSync(passwordFile, 'a long passphrase from a secret\n', { mode: 0o600 });
      const started = await startServer(dir, {
        SVC_BOOTSTRAP_EMAIL: 'admin@example.com',
        SVC_BOOTSTRAP_PASSWORD_FILE: passwordFile,
        SVC_BOOTSTRAP_ORGANIZATION: 'Env Ops',
      });
      expect(started.output()).toContain('svc serving');
      const res = await signIn(started.url, {
        email: 'admin@example.com',
        password: 'a long passphrase from a secret',
        tenant_slug: 'env-ops',
      });
      expect(res.status, res.text).toBe(200);
      const migrate = await svc(['migrate'], dir);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stderr.trim()).toBe('svc: database is up to date');
      expect(await stop(started, 'SIGTERM')).toBe(0);
    },
    STARTS_SERVERS,
  );

  it('a data directory the embedded database cannot open gives one line naming it and the next step', async () => {
    const dir = freshDataDir();
    mkdirSync(join(dir, 'pgdata'));
    writeFileSync(join(dir, 'pgdata', 'PG_VERSION'), 'not a database\n');
    const result = await svc(['migrate'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('Aborted');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^svc: DATA_DIR ${dir}: the embedded database in \\S+ cannot be opened .*svc doctor`),
      ),
    ]);
    expect(existsSync(join(dir, 'svc.lock'))).toBe(false);
  }, 60_000);

  it('refuses to serve a data directory other users may write to (its control socket takes passwords)', async () => {
    const dir = freshDataDir();
    chmodSync(dir, 0o777);
    const refused = await startServer(dir);
    expect(await refused.exited).toBe(1);
    expect(refused.output().trim()).toBe(`svc: DATA_DIR ${dir} is writable by other users; run \`chmod go-w ${dir}\``);
    expect(existsSync(join(dir, 'pgdata'))).toBe(false);
  }, 60_000);

  it(
    'answers a malformed control-socket request as malformed and keeps serving (attack review)',
    async () => {
      const dir = freshDataDir();
      const owner = await startServer(dir);
      expect(owner.output()).toContain('svc serving');
      // Valid JSON that is no command: `null` used to throw in the socket's data handler and end the process.
      for (const line of ['null', '42', '[]', '{"name":{}}']) {
        const reply = await exchange(join(dir, 'svc.sock'), `${line}\n`);
        expect(JSON.parse(reply), line).toEqual({ exitCode: 2, lines: ['control socket: malformed request'] });
      }
      const health = await request(`${owner.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await stop(owner, 'SIGTERM')).toBe(0);
    },
    STARTS_SERVERS,
  );

  it('refuses a data directory whose control socket path no Unix socket can hold (attack review)', async () => {
    // Longer than sun_path from here and as an absolute path: the kernel would truncate it, binding (or, for the
    // CLI, connecting to) a socket in a parent directory.
    const parent = freshDataDir();
    const dir = join(parent, 'd'.repeat(110));
    mkdirSync(dir, { mode: 0o700 });
    const refused = await startServer(dir);
    expect(await refused.exited).toBe(1);
    expect(refused.output().trim()).toMatch(
      new RegExp(`^svc: DATA_DIR ${dir}: its control socket path .* choose a shorter DATA_DIR$`),
    );
    expect(readdirSync(parent)).toEqual(['d'.repeat(110)]);
    expect(existsSync(join(dir, 'pgdata'))).toBe(false);
  }, 60_000);
});

/** One request line to a Unix socket; resolves with whatever came back before it closed. */
function exchange(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let received = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
  });
}

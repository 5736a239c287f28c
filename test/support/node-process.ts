import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { freePort } from './free-port.js';

export interface NodeProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit signal or code once the process has ended. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What the process wrote to standard error (its start failures). */
  stderr(): string;
  /** What the process wrote to standard output (its log). */
  stdout(): string;
  /** SIGTERM, then SIGKILL if it has not ended within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `svc serve` (with `args` after it) as its own operating-system process (so a test can SIGKILL it), from the
 * sources through tsx, with `env` added to the test's environment. Resolves once it answers HTTP; rejects with
 * its standard error if it ends or does not answer within `readyTimeoutMs`.
 */
export async function startNodeProcess(
  env: Record<string, string>,
  { readyTimeoutMs = 120_000, args = [] as string[] } = {},
): Promise<NodeProcess> {
  const port = await freePort();
  // Vitest puts Vite's BASE_URL ("/") into process.env; the node must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', ...args], {
    env: { ...inherited, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? code));
  });
  const url = `http://127.0.0.1:${port}`;
  const node: NodeProcess = {
    url,
    child,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + readyTimeoutMs;
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`svc serve ended before it answered: ${stderr.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/.well-known/jwks.json`);
      if (res.ok) return node;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await node.stop(1000);
      throw new Error(`svc serve did not answer within ${readyTimeoutMs} ms: ${stderr.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Removes what a file's own `svc` processes stored: their embedded data directory and, on a PostgreSQL run
 * (DATABASE_URL), the schema they were given. Call it once the processes have ended.
 */
export async function removeProcessStorage(dataDir: string, schema: string): Promise<void> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}

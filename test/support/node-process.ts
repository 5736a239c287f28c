import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';

/** A loopback port free right now (the OS picks it; the node binds it moments later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NodeProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit signal or code once the process has ended. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What the process wrote to standard error (its start failures). */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not ended within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `svc serve` as its own operating-system process (so a test can SIGKILL it), from the sources through tsx,
 * with `env` added to the test's environment. Resolves once it answers HTTP.
 */
export async function startNodeProcess(env: Record<string, string>, readyTimeoutMs = 120_000): Promise<NodeProcess> {
  const port = await freePort();
  // Vitest puts Vite's BASE_URL ("/") into process.env; the node must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: { ...inherited, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
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

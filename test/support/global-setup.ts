import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Runs once before the suite: nothing to prepare yet beyond making the run's environment explicit. */
export default function setup(): void {
  process.env.SVC_ENV = 'test';
  buildConsoleIfStale();
}

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

/** Newest modification time under `path` (a file or a directory tree). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * The console's tests (docs/console.md) run the service from source, which serves dist/console: build it with
 * Vite when it is missing or older than its sources (about a second). Built beside and swapped in, under a lock,
 * so concurrent test runs never serve a half-written directory.
 */
function buildConsoleIfStale(): void {
  const out = join(ROOT, 'dist/console');
  const sources = [join(ROOT, 'console'), join(ROOT, 'src/web/styles/tokens.css')];
  const stale = () =>
    !existsSync(join(out, 'index.html')) || newest(join(out, 'index.html')) < Math.max(...sources.map(newest));
  if (!stale()) return;
  const lock = join(ROOT, 'dist/.console-build.lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      else execFileSync('sleep', ['0.5']);
    }
  }
  try {
    if (!stale()) return;
    const next = join(ROOT, `dist/.console-${process.pid}`);
    execFileSync(
      join(ROOT, 'node_modules/.bin/vite'),
      ['build', '-c', 'console/vite.config.ts', '--logLevel', 'warn', '--outDir', next],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    const old = join(ROOT, `dist/.console-old-${process.pid}`);
    if (existsSync(out)) renameSync(out, old);
    renameSync(next, out);
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

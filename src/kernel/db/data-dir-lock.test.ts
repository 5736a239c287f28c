import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}
function forgeLock(dir: string, holder: { pid: number; started: string | null; command?: string }): void {
  const record = { host: hostname(), bootId, command: 'svc serve', ...holder };
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify(record));
}

describe('the lock on an embedded data directory', () => {
  it('is taken with the holder named, refused while held, and gone once released', async () => {
    const dir = dataDir();
    const lock = await lockDataDir(dir, 'svc serve');
    const file = join(dir, LOCK_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, command: 'svc serve' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(lockDataDir(`${dir}/.`, 'svc migrate')).rejects.toThrow('already open in this process');
    lock.release();
    expect(existsSync(file)).toBe(false);
    (await lockDataDir(dir, 'svc serve')).release();
  });

  it('is taken once when one process opens the directory twice at the same time', async () => {
    const dir = dataDir();
    const both = await Promise.allSettled([lockDataDir(dir, 'svc serve'), lockDataDir(dir, 'svc serve')]);
    expect(both.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    for (const result of both) if (result.status === 'fulfilled') result.value.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses while a live process holds it, with one line naming the directory, the holder and what to do', async () => {
    const dir = dataDir();
    const holder = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      forgeLock(dir, { pid: holder.pid!, started: startTimeOf(holder.pid!) });
      const refused = await lockDataDir(dir, 'svc serve').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DataDirLockedError);
      const message = (refused as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(`DATA_DIR ${dir} is in use by \`svc serve\` (pid ${holder.pid})`);
      expect(message).toContain('Stop that process first');
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    // Its holder died without releasing it (SIGKILL): the lock is stale and taken over.
    const lock = await lockDataDir(dir, 'svc serve');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (pid reuse), or to this very process', async () => {
    const dir = dataDir();
    // The test runner is alive, but did not start at the recorded time: its pid was reused.
    forgeLock(dir, { pid: process.ppid, started: '1' });
    const reused = await lockDataDir(dir, 'svc serve');
    reused.release();
    // A container restarts the service as pid 1 every time: a lock naming our own pid is an earlier life's.
    forgeLock(dir, { pid: process.pid, started: startTimeOf(process.pid) });
    const own = await lockDataDir(dir, 'svc serve');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).command).toBe('svc serve');
    own.release();
  });

  it('waits for a short command that holds the directory, then takes it', async () => {
    const dir = dataDir();
    const holder = spawn('sleep', ['30']);
    await new Promise((resolve) => holder.once('spawn', resolve));
    forgeLock(dir, { pid: holder.pid!, started: startTimeOf(holder.pid!), command: 'svc bootstrap' });
    setTimeout(() => holder.kill('SIGKILL'), 500);
    const lock = await lockDataDir(dir, 'svc serve');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });
});

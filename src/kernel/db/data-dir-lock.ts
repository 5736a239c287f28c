import { closeSync, fsyncSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * One process at a time owns an embedded (PGlite) data directory. PGlite is PostgreSQL in single-user mode: it
 * has no postmaster, so nothing stops a second process from opening the same files, and two writers corrupt
 * them (the first-run report of issue 18). The guard is a lock file, `DATA_DIR/svc.lock`:
 *
 * - taken with `open(…, 'wx')` (O_CREAT|O_EXCL): the kernel lets exactly one creator win, on every platform and
 *   without native code. Node has no flock()/fcntl() binding, and a held flock would be the only stronger choice;
 * - naming its holder (pid, host name, kernel boot id, the process's start time, the command), so that the lock
 *   of a process that died (SIGKILL, power loss) is recognised and taken over: on the same host and boot, the
 *   holder is alive when `kill(pid, 0)` finds its pid *and* that pid still has the recorded start time (a pid is
 *   reused after a restart: in a container the service is pid 1 every time). A holder on another host name (a
 *   second container on a shared volume, whose pids mean nothing here) is alive while its control socket answers;
 *   short commands, which serve no socket, count as alive for a minute after taking the lock;
 * - taken over under a second O_EXCL file, so two processes that both find a stale lock cannot both win;
 * - removed on close and, as a last resort, on process exit.
 */

export const LOCK_FILE = 'svc.lock';
export const CONTROL_SOCKET = 'svc.sock';
const TAKEOVER_FILE = 'svc.lock.takeover';
/** How long a holder that serves no control socket is trusted without a liveness check we can make. */
const UNVERIFIABLE_GRACE_MS = 60_000;
/** Short commands (`svc bootstrap`, `svc migrate`, …) hold the directory for seconds: others wait for them. */
const SHORT_HOLDER_WAIT_MS = 60_000;

export interface LockHolder {
  pid: number;
  host: string;
  bootId: string | null;
  /** The process's start time in clock ticks since boot (Linux /proc/<pid>/stat field 22); null elsewhere. */
  started: string | null;
  command: string;
}

/** The directory is owned by a live process. The message is one line naming the directory and the next step. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const who = `\`${holder.command}\` (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`})`;
    super(
      `DATA_DIR ${dataDir} is in use by ${who}: an embedded database has one owner. ` +
        'Stop that process first, or run several nodes on PostgreSQL (DATABASE_URL)',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

const held = new Set<string>();

export async function lockDataDir(dataDir: string, command: string): Promise<DataDirLock> {
  const file = resolve(dataDir, LOCK_FILE);
  if (held.has(file)) throw new Error(`DATA_DIR ${dataDir} is already open in this process`);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    bootId: bootId(),
    started: startTime(process.pid),
    command,
  };
  const mine = JSON.stringify(me);
  held.add(file); // before any wait: a second open in this process must not take our lock for a stale one
  try {
    await acquire(dataDir, file, mine);
  } catch (error) {
    held.delete(file);
    throw error;
  }
  const release = () => {
    if (!held.delete(file)) return;
    process.off('exit', release);
    if (readRaw(file) === mine) unlinkQuietly(file);
  };
  process.on('exit', release);
  return { release };
}

async function acquire(dataDir: string, file: string, mine: string): Promise<void> {
  const waitUntil = Date.now() + SHORT_HOLDER_WAIT_MS;
  for (;;) {
    if (createExclusive(file, mine)) return;
    const seen = readRaw(file);
    if (seen === undefined) continue;
    const holder = parseHolder(seen);
    if (holder && (await holderAlive(holder, dataDir, file))) {
      const short = holder.command !== 'svc serve' && holder.command !== 'svc worker';
      if (short && Date.now() < waitUntil) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      throw new DataDirLockedError(dataDir, holder);
    }
    // A half-written lock (its creator is between open and write) is given a moment before it counts as stale.
    if (!holder && ageMs(file) < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    await takeOver(dataDir, file, seen);
  }
}

/** Who holds the directory now, if anyone alive does (for `svc doctor` and the CLI's hand-over). */
export async function liveHolder(dataDir: string): Promise<LockHolder | undefined> {
  const file = join(dataDir, LOCK_FILE);
  const holder = parseHolder(readRaw(file));
  return holder && (await holderAlive(holder, dataDir, file)) ? holder : undefined;
}

function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes a stale lock, unless another process replaced it meanwhile; one taker at a time. */
async function takeOver(dataDir: string, file: string, stale: string): Promise<void> {
  const guard = join(dataDir, TAKEOVER_FILE);
  if (!createExclusive(guard, String(process.pid))) {
    // A taker that died inside these few statements leaves its guard behind: it expires.
    if (ageMs(guard) > 10_000) unlinkQuietly(guard);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return;
  }
  try {
    if (readRaw(file) === stale) unlinkQuietly(file);
  } finally {
    unlinkQuietly(guard);
  }
}

async function holderAlive(holder: LockHolder, dataDir: string, file: string): Promise<boolean> {
  if (holder.host === hostname() && holder.bootId === bootId()) {
    if (holder.pid === process.pid) return false; // not held by this process (checked first): a reused pid
    try {
      process.kill(holder.pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
    }
    const started = startTime(holder.pid);
    return holder.started === null || started === null || started === holder.started;
  }
  if (await socketAnswers(join(dataDir, CONTROL_SOCKET))) return true;
  return ageMs(file) < UNVERIFIABLE_GRACE_MS;
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(2_000, () => done(false));
  });
}

function parseHolder(raw: string | undefined): LockHolder | undefined {
  if (!raw) return undefined;
  try {
    const holder = JSON.parse(raw) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

function readRaw(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

let cachedBootId: string | null | undefined;
function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId;
}

function startTime(pid: number): string | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

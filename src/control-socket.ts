import { chmodSync, lstatSync, statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import { CONTROL_SOCKET } from './kernel/db/data-dir-lock.js';

/**
 * The local control socket: on the embedded database only the server's process may open the data directory,
 * so the CLI commands that need the database (`svc bootstrap`, `svc migrate`, `svc keys rotate`, `svc doctor`)
 * hand their work to the running server through a Unix domain socket in DATA_DIR. One JSON line each way.
 *
 * Only the directory's owner may use it: the socket is created 0600 (umask 077 while it is bound, then chmod),
 * the server refuses a DATA_DIR that other users may write to or that another user owns, and the client refuses
 * a socket that is not its own user's (a bootstrap sends a password over it).
 */

export type ControlCommand =
  | { name: 'bootstrap'; email: string; password: string; organization: string }
  | { name: 'migrate' }
  | { name: 'keys-rotate' }
  | { name: 'doctor' };

/** What the command printed (each line goes to standard error as `svc: …`) and its exit code. */
export interface ControlReply {
  exitCode: number;
  lines: string[];
}

const MAX_REQUEST_BYTES = 64 * 1024;
/**
 * sun_path holds 108 bytes on Linux and 104 on macOS, its NUL included; a longer path is not refused but cut
 * short, so the server would bind (and a client connect to) a socket in a parent directory.
 */
const MAX_SOCKET_PATH_BYTES = 100;

export function controlSocketPath(dataDir: string): string {
  const absolute = join(dataDir, CONTROL_SOCKET);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH_BYTES) return absolute;
  // A relative path is often shorter.
  const short = relative(process.cwd(), absolute);
  if (Buffer.byteLength(short) <= MAX_SOCKET_PATH_BYTES) return short;
  throw new Error(
    `DATA_DIR ${dataDir}: its control socket path ${absolute} is longer than a Unix socket path may be ` +
      `(${MAX_SOCKET_PATH_BYTES} bytes); choose a shorter DATA_DIR`,
  );
}

/** Refuses a DATA_DIR that is not private to this user (the socket carries passwords and signing-key commands). */
export function assertPrivateDirectory(dataDir: string): void {
  const info = statSync(dataDir);
  if (process.getuid && info.uid !== process.getuid()) {
    throw new Error(`DATA_DIR ${dataDir} belongs to another user (uid ${info.uid}); run svc as its owner`);
  }
  if (info.mode & 0o022) {
    throw new Error(`DATA_DIR ${dataDir} is writable by other users; run \`chmod go-w ${dataDir}\``);
  }
}

export async function serveControlSocket(
  dataDir: string,
  handle: (command: ControlCommand) => Promise<ControlReply>,
): Promise<{ close(): Promise<void> }> {
  assertPrivateDirectory(dataDir);
  const path = controlSocketPath(dataDir);
  // We own the data directory's lock, so a socket file left here is a dead owner's.
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // none
  }
  const server = createServer((socket) => answer(socket, handle));
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

function answer(socket: Socket, handle: (command: ControlCommand) => Promise<ControlReply>): void {
  let received = '';
  socket.setEncoding('utf8');
  socket.on('error', () => undefined);
  socket.on('data', (chunk: string) => {
    received += chunk;
    if (received.length > MAX_REQUEST_BYTES) {
      socket.destroy();
      return;
    }
    const end = received.indexOf('\n');
    if (end < 0) return;
    socket.removeAllListeners('data');
    let command: ControlCommand;
    try {
      command = JSON.parse(received.slice(0, end)) as ControlCommand;
    } catch {
      command = undefined as unknown as ControlCommand;
    }
    // Valid JSON that is no command (`null`, a number) would throw in this data handler and end the server.
    if (typeof command !== 'object' || command === null || typeof command.name !== 'string') {
      socket.end(`${JSON.stringify({ exitCode: 2, lines: ['control socket: malformed request'] })}\n`);
      return;
    }
    // Through a promise: a handler that throws before its first await answers like one that rejects.
    Promise.resolve(command)
      .then(handle)
      .then(
        (reply) => socket.end(`${JSON.stringify(reply)}\n`),
        (error: unknown) =>
          socket.end(
            `${JSON.stringify({ exitCode: 1, lines: [error instanceof Error ? error.message : String(error)] })}\n`,
          ),
      );
  });
}

/**
 * Sends one command to the server that owns DATA_DIR. Undefined when no server listens there (no socket, or a
 * dead owner's socket file).
 */
export async function sendControlCommand(dataDir: string, command: ControlCommand): Promise<ControlReply | undefined> {
  const path = controlSocketPath(dataDir);
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!info.isSocket() || (process.getuid && info.uid !== process.getuid())) {
    throw new Error(`${path} is not this user's control socket; remove it, or run svc as the owner of ${dataDir}`);
  }
  return new Promise<ControlReply | undefined>((resolve, reject) => {
    const socket = connect(path);
    let received = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(command)}\n`);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(undefined);
      else reject(new Error(`control socket ${path}: ${error.message}`));
    });
    socket.once('close', () => {
      if (!connected) return;
      try {
        resolve(JSON.parse(received) as ControlReply);
      } catch {
        reject(new Error(`control socket ${path}: the server closed the connection without an answer`));
      }
    });
  });
}

import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The loopback port clients connect to instead of the target's. */
  port: number;
  /** `url` with its host and port replaced by the proxy's (`postgres://…`, `redis://…`). */
  rewrite(url: string): string;
  /** Connections forwarded so far (a reconnect shows as a new one). */
  readonly accepted: number;
  /** Connections attempted so far, forwarded or reset during a cut. */
  readonly attempted: number;
  /**
   * A network cut: every open connection is reset at once and, until `resume()`, every new one is reset as
   * soon as it arrives (the client sees ECONNRESET or a closed connection, as with a peer that went away).
   */
  cut(): void;
  /** Forwards new connections again. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of `target` (PostgreSQL, Redis) that a test can cut and resume, to see what
 * the service does when a peer goes away and comes back.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let down = false;
  let accepted = 0;
  let attempted = 0;
  const server = createServer((client) => {
    attempted += 1;
    if (down) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    accepted += 1;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const resetAll = () => {
    for (const [client, upstream] of [...pairs]) {
      pairs.delete([client, upstream]);
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    get accepted() {
      return accepted;
    },
    get attempted() {
      return attempted;
    },
    cut() {
      down = true;
      resetAll();
    },
    resume() {
      down = false;
    },
    close() {
      resetAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a `postgres://` or `redis://` URL. */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

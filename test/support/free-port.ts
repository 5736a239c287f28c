import { type AddressInfo, createServer } from 'node:net';

/**
 * A loopback port free right now: the OS picks it and it is released at once, so a process started next can bind
 * it, or a test can point a client at it to meet a closed port.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

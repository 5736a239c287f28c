import { Agent, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const sessionsOf = async (userId: string) =>
  Number(
    (
      await rows<{ count: string | number }>(
        svc.deps.database.db,
        sql`select count(*) as count from sessions where user_id = ${userId}`,
      )
    )[0]!.count,
  );

/** The next request `server` receives (its headers are read: it is in progress, no longer a pre-connect). */
const nextRequest = (server: Server) => new Promise<void>((resolve) => server.once('request', () => resolve()));

/**
 * Sends a request and hangs up once the server has it, as a client that goes away does (the server's own event,
 * not a delay: on a loaded machine a delay may end before the request arrives, or after it is answered).
 */
function sendAndHangUp(server: Server, url: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const arrived = nextRequest(server);
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify(body));
    req.on('response', () => reject(new Error('answered before the client hung up')));
    void arrived.then(() => {
      req.destroy();
      resolve();
    });
  });
}

describe('stopping a node', () => {
  it('waits for a handler whose client went away: its work commits before the node lets go of the database', async () => {
    const owner = await signUpOwner(svc.url);
    const node = await startSecondNode(svc);
    const before = await sessionsOf(owner.userId);
    await sendAndHangUp(node.app.server, `${node.url}/api/v1/auth/login`, {
      email: owner.email,
      password: owner.password,
      tenant_slug: owner.slug,
    });
    await node.close();
    expect(await sessionsOf(owner.userId)).toBe(before + 1);
  });

  it('closes a keep-alive connection once its request in progress is answered, so the stop does not wait for the client', async () => {
    const owner = await signUpOwner(svc.url);
    const node = await startSecondNode(svc);
    const agent = new Agent({ keepAlive: true });
    try {
      const arrived = nextRequest(node.app.server);
      const answered = new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(`${node.url}/api/v1/auth/login`, {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json' },
        });
        req.on('response', resolve);
        req.on('error', reject);
        req.end(JSON.stringify({ email: owner.email, password: owner.password, tenant_slug: owner.slug }));
      });
      // The stop begins once the sign-in has arrived, while its password check runs.
      await arrived;
      const stopped = node.close();
      const response = await answered;
      expect(response.statusCode).toBe(200);
      expect(response.headers.connection).toBe('close');
      response.resume();
      await new Promise((resolve) => response.socket.once('close', resolve));
      await stopped;
    } finally {
      agent.destroy();
    }
  });

  it('closes a connection that has sent nothing yet (a pre-connect) instead of waiting for its client', async () => {
    const node = await startSecondNode(svc);
    const { port } = new URL(node.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise<boolean>((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    await node.close();
    await closed;
    expect(socket.bytesRead).toBe(0);
    expect(socket.destroyed).toBe(true);
  });
});

import { request as httpRequest } from 'node:http';
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

/** Sends a request and hangs up as soon as it is written, as a client that goes away does. */
function sendAndHangUp(url: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify(body), () => {
      // Long enough for the request to reach its handler, shorter than a password check.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 15);
    });
    req.on('response', () => reject(new Error('answered before the client hung up')));
  });
}

describe('stopping a node', () => {
  it('waits for a handler whose client went away: its work commits before the node lets go of the database', async () => {
    const owner = await signUpOwner(svc.url);
    const node = await startSecondNode(svc);
    const before = await sessionsOf(owner.userId);
    await sendAndHangUp(`${node.url}/api/v1/auth/login`, {
      email: owner.email,
      password: owner.password,
      tenant_slug: owner.slug,
    });
    await node.close();
    expect(await sessionsOf(owner.userId)).toBe(before + 1);
  });
});

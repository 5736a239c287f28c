import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/kernel/events/index.js';
import { signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';
import { failSignIn, type Owner, opened, openStream } from './command-support.js';

// The live stream across nodes (issue 22 item 2; ARCHITECTURE.md scale-out): an event committed on one node reaches
// a stream held on another node of the same installation, through Redis pub/sub when REDIS_URL is set and through
// the database's LISTEN/NOTIFY without it (with DATABASE_URL a PostgreSQL server; otherwise the embedded database,
// shared by the nodes of this process).

const fanOuts: Array<{ name: string; env: Record<string, string> }> = process.env.REDIS_URL
  ? [
      { name: 'Redis pub/sub', env: {} },
      { name: 'the database (LISTEN/NOTIFY, no Redis)', env: { REDIS_URL: '' } },
    ]
  : [{ name: 'the database (LISTEN/NOTIFY)', env: {} }];

describe.each(fanOuts)('across nodes through $name', ({ env }) => {
  let first: TestService;
  let second: Awaited<ReturnType<typeof startSecondNode>>;
  let alpha: Owner;
  let beta: Owner;
  beforeAll(async () => {
    first = await startService(env);
    second = await startSecondNode(first);
    alpha = await signUpOwner(first.url, 'alpha');
    beta = await signUpOwner(first.url, 'beta');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('delivers an event committed on one node to a stream held on the other, confined to its organization', async () => {
    const stream = await openStream(`${second.url}/api/v1/command/events/stream`, alpha.token);
    expect(stream.status).toBe(200);
    await stream.until(opened);
    for (const who of [beta, alpha]) await failSignIn(first, who);
    await stream.until((text) => text.includes('user.login_failed'));
    expect(stream.events()).toEqual([
      expect.objectContaining({
        tenant_id: alpha.tenantId,
        actor: { id: alpha.userId, type: 'human' },
        action: 'user.login_failed',
      }),
    ]);
    stream.close();
  });

  it('carries an envelope too large for one notification whole, in commit order', async () => {
    const stream = await openStream(`${second.url}/api/v1/command/events/stream`, alpha.token);
    await stream.until(opened);
    const large = 'y'.repeat(20_000);
    const emitted: EventEnvelope[] = [];
    for (const data of [{ note: large }, { note: 'small' }]) {
      emitted.push(
        await first.deps.transactions.tenant(alpha.tenantId, (tx) =>
          first.deps.events.emit(tx, {
            tenantId: alpha.tenantId,
            actor: { id: alpha.userId, type: 'human' },
            category: 'admin',
            action: 'setting.changed',
            data,
          }),
        ),
      );
    }
    await stream.until((text) => text.includes('"small"'));
    expect(stream.events()).toEqual(emitted);
    stream.close();
  });
});

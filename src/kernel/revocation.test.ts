import { describe, expect, it } from 'vitest';
import type { Tx } from './db/index.js';
import { createRevocationCascade, type EndedSession } from './revocation.js';

const tx = {} as Tx;
const at = new Date('2026-01-01T00:00:00Z');
const session = (sessionId: string, clientId: string | null = null): EndedSession => ({
  tenantId: 't',
  sessionId,
  userId: 'u',
  clientId,
  parentSessionId: null,
  reason: 'logout',
});

describe('revocation cascade', () => {
  it('runs the consequences of a cause in registration order and lists them by name', async () => {
    const cascade = createRevocationCascade();
    const ran: string[] = [];
    cascade.on('sessionsEnded', async function first() {
      ran.push('first');
    });
    cascade.on('sessionsEnded', async function second() {
      ran.push('second');
    });
    cascade.on('membershipEnded', async function member() {
      ran.push('member');
    });
    await cascade.sessionsEnded(tx, { sessions: [session('s1')], at });
    expect(ran).toEqual(['first', 'second']);
    expect(cascade.consequences()).toEqual({
      sessionsEnded: ['first', 'second'],
      accountSessionsEnded: [],
      membershipEnded: ['member'],
      agentRetired: [],
    });
  });

  it('lets a consequence end more sessions and tell the cascade again; nothing ended runs nothing', async () => {
    const cascade = createRevocationCascade();
    const seen: string[][] = [];
    cascade.on('sessionsEnded', async function endChildren(q, change, again) {
      seen.push(change.sessions.map((s) => s.sessionId));
      const parents = change.sessions.filter((s) => s.clientId === null);
      if (parents.length > 0) await again.sessionsEnded(q, { sessions: [session('grant', 'client')], at: change.at });
    });
    await cascade.sessionsEnded(tx, { sessions: [session('browser')], at });
    await cascade.sessionsEnded(tx, { sessions: [], at });
    expect(seen).toEqual([['browser'], ['grant']]);
  });

  it('refuses an anonymous consequence: the list must say what runs', () => {
    const cascade = createRevocationCascade();
    expect(() =>
      cascade.on(
        'membershipEnded',
        Object.defineProperty(async () => {}, 'name', { value: '' }),
      ),
    ).toThrow(/needs a name/);
  });
});

import type { Tx } from './db/index.js';

/**
 * The revocation cascade (Part A 3): what else ends when a session, all of an account's sessions or a membership
 * ends. Ending is the owner's write (sign-in ends sessions, accounts bumps the epoch, organizations changes a
 * membership); right after it, in the same transaction, the owner tells the cascade, which runs every consequence
 * registered for that cause, in registration order. Modules plug their consequences in at wiring time (src/app.ts),
 * so the cascade knows no module and no module knows who reacts: `consequences()` lists them by name, and
 * docs/architecture.md "What happens when a session ends" shows the list.
 *
 * Part B adds causes here without touching the callers of the existing ones: an agent retired is the first.
 */

/** A session that has just ended. `clientId` is set for an OAuth grant session, `parentSessionId` for its parent. */
export interface EndedSession {
  tenantId: string;
  sessionId: string;
  userId: string;
  clientId: string | null;
  parentSessionId: string | null;
  /** The reason recorded on the session (`logout`, `member_removed`, …). */
  reason: string;
}

/** Each cause and what its consequences learn about the change. */
export interface RevocationCauses {
  /** Sessions ended in this transaction (logout, revocation, replay, IdP logout, member removal, …). */
  sessionsEnded: { sessions: readonly EndedSession[]; at: Date };
  /**
   * Every token of an account is refused from now on, in every organization: its epoch was bumped (sign-out
   * everywhere, password change or reset) or it was disabled (erasure). Sessions minted under `previousEpoch`
   * are dead without a write of their own.
   */
  accountSessionsEnded: { userId: string; previousEpoch: number; at: Date };
  /** A membership stopped being active (removed, suspended by SCIM): the person's sessions there are dead. */
  membershipEnded: { tenantId: string; userId: string; at: Date };
  /**
   * An AI agent was retired (Part B 2.1: permanent): its credential and held tokens are refused from now on by
   * its status; what it was given (delegations, and later pending asks) ends with it.
   */
  agentRetired: {
    tenantId: string;
    agentId: string;
    actor: { id: string; type: 'human' | 'agent' | 'service' | 'system' };
    at: Date;
  };
}

export type RevocationCause = keyof RevocationCauses;

/**
 * One consequence: a named function (its name is what `consequences()` lists), run in the transaction of the
 * change. It may end more sessions and tell the cascade again (`cascade.sessionsEnded`).
 */
export type RevocationConsequence<C extends RevocationCause> = (
  tx: Tx,
  change: RevocationCauses[C],
  cascade: RevocationCascade,
) => Promise<void>;

export interface RevocationCascade {
  /** Registers a consequence of `cause` (at wiring time, before the first request). */
  on<C extends RevocationCause>(cause: C, consequence: RevocationConsequence<C>): void;
  sessionsEnded(tx: Tx, change: RevocationCauses['sessionsEnded']): Promise<void>;
  accountSessionsEnded(tx: Tx, change: RevocationCauses['accountSessionsEnded']): Promise<void>;
  membershipEnded(tx: Tx, change: RevocationCauses['membershipEnded']): Promise<void>;
  agentRetired(tx: Tx, change: RevocationCauses['agentRetired']): Promise<void>;
  /** The registered consequences of each cause, by function name, in the order they run. */
  consequences(): { [C in RevocationCause]: string[] };
}

export function createRevocationCascade(): RevocationCascade {
  const registered: { [C in RevocationCause]: RevocationConsequence<C>[] } = {
    sessionsEnded: [],
    accountSessionsEnded: [],
    membershipEnded: [],
    agentRetired: [],
  };
  async function run<C extends RevocationCause>(tx: Tx, cause: C, change: RevocationCauses[C]): Promise<void> {
    for (const consequence of registered[cause]) await consequence(tx, change, cascade);
  }
  const cascade: RevocationCascade = {
    on(cause, consequence) {
      if (!consequence.name) throw new Error(`a consequence of ${cause} needs a name`);
      (registered[cause] as RevocationConsequence<typeof cause>[]).push(consequence);
    },
    async sessionsEnded(tx, change) {
      if (change.sessions.length > 0) await run(tx, 'sessionsEnded', change);
    },
    accountSessionsEnded: (tx, change) => run(tx, 'accountSessionsEnded', change),
    membershipEnded: (tx, change) => run(tx, 'membershipEnded', change),
    agentRetired: (tx, change) => run(tx, 'agentRetired', change),
    consequences: () => ({
      sessionsEnded: registered.sessionsEnded.map((c) => c.name),
      accountSessionsEnded: registered.accountSessionsEnded.map((c) => c.name),
      membershipEnded: registered.membershipEnded.map((c) => c.name),
      agentRetired: registered.agentRetired.map((c) => c.name),
    }),
  };
  return cascade;
}

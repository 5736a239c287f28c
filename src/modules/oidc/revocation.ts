import { newId } from '../../kernel/ids.js';
import type { RevocationConsequence } from '../../kernel/revocation.js';
import * as store from './store.js';

/**
 * The OpenID Provider's consequences in the revocation cascade (src/kernel/revocation.ts, wired in src/app.ts):
 * a client whose grant ends is told by back-channel logout (Part A 4.14, OIDC Back-Channel Logout 1.0). Each
 * queues logout tokens in the transaction of the change; the worker sends them after commit.
 */

/** `sessionsEnded`: each ended grant session queues its client's logout (`sid`: the provider session). */
export const queueBackchannelLogouts: RevocationConsequence<'sessionsEnded'> = async function queueBackchannelLogouts(
  tx,
  change,
) {
  const grants = change.sessions.flatMap((session) =>
    session.clientId
      ? [
          {
            tenantId: session.tenantId,
            clientId: session.clientId,
            userId: session.userId,
            sid: session.parentSessionId ?? session.sessionId,
          },
        ]
      : [],
  );
  await store.queueBackchannelLogouts(
    tx,
    grants,
    change.at,
    grants.map(() => newId()),
  );
};

/** `accountSessionsEnded`: every grant of the account, in every organization, minted under the old epoch. */
export const queueBackchannelLogoutsOfAccount: RevocationConsequence<'accountSessionsEnded'> =
  async function queueBackchannelLogoutsOfAccount(tx, change) {
    await store.queueAccountBackchannelLogouts(tx, change.userId, change.previousEpoch, change.at);
  };

/** `membershipEnded`: the member's grants in that organization that were live until now. */
export const queueBackchannelLogoutsOfMembership: RevocationConsequence<'membershipEnded'> =
  async function queueBackchannelLogoutsOfMembership(tx, change) {
    const grants = await store.grantsOfMember(tx, change.tenantId, change.userId);
    await store.queueBackchannelLogouts(
      tx,
      grants,
      change.at,
      grants.map(() => newId()),
    );
  };

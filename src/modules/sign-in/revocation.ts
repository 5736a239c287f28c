import type { RevocationConsequence } from '../../kernel/revocation.js';
import * as store from './store.js';

/**
 * Consequence of `sessionsEnded` (src/kernel/revocation.ts): a browser session at the OpenID Provider that ends
 * takes the OAuth grants made from it along (their ID tokens carry it as `sid`, Part A 4.14), with its time and
 * reason; the grants that end are told to the cascade in turn (their back-channel logouts). Grant sessions have
 * no children, so only first-party sessions are looked at.
 */
export const endGrantSessionsMadeFromThem: RevocationConsequence<'sessionsEnded'> =
  async function endGrantSessionsMadeFromThem(tx, change, cascade) {
    const parents = change.sessions.filter((session) => session.clientId === null);
    if (parents.length === 0) return;
    const grants = await store.revokeGrantSessionsMadeFrom(tx, parents, change.at);
    await cascade.sessionsEnded(tx, { sessions: grants, at: change.at });
  };

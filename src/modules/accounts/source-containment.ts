import { isIP } from 'node:net';
import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { type LimitDecision, type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { SignInGate } from '../sign-in/index.js';

// Credential stuffing from one source (Part B 4.9 `contain_source`): the detection the password sign-in raises when
// its per-address failure throttle engages, and the containment autonomy executes and reverts through this module.
// Both live in the sign-in limiter, like the throttle itself (shared across nodes through Redis when configured).

/** Failed sign-ins, per source address and per account; a success clears the account's counter (Part A 8). */
export const LOGIN_FAILURES_PER_IP: LimitPolicy = { name: 'login-failures-ip', points: 50, durationSeconds: 900 };

export const CREDENTIAL_STUFFING_RULE = 'credential-stuffing';

/** How long a contained source stays refused (docs/decisions.md): past the failure window, short of a day. */
export const CONTAINMENT_SECONDS = 3600;

/**
 * A contained source: one point spent when contained, so its window runs `CONTAINMENT_SECONDS` from the
 * containment and no later one extends it. Keyed by organization and exact address.
 */
const SOURCE_CONTAINED: LimitPolicy = {
  name: 'login-source-contained',
  points: 1,
  durationSeconds: CONTAINMENT_SECONDS,
};

/** One detection per organization, address and failure window: a hammering source writes no row per attempt. */
const STUFFING_RAISED: LimitPolicy = {
  name: 'credential-stuffing-raised',
  points: 1,
  durationSeconds: LOGIN_FAILURES_PER_IP.durationSeconds,
};

/**
 * Releasing a source also gives its address the failure budget back, at most once per address and failure window:
 * that budget is shared by every organization, so no organization's releases can lift it faster than that.
 */
const FAILURES_GIVEN_BACK: LimitPolicy = {
  name: 'login-failures-ip-given-back',
  points: 1,
  durationSeconds: LOGIN_FAILURES_PER_IP.durationSeconds,
};

export interface Source {
  tenantId: string;
  sourceIp: string;
}

/** A single address (IPv4 or IPv6 literal, as the throttle keys it): never a network, never anything else. */
function keyOf(source: Source): string {
  if (isIP(source.sourceIp) === 0) throw new Error(`not a single address: ${JSON.stringify(source.sourceIp)}`);
  return `${source.tenantId}|${source.sourceIp}`;
}

const storeDown = () =>
  new HttpError(503, 'The sign-in limiter is unavailable: the source could not be changed; nothing was done');

/** What an address that cannot be contained (not an IP literal, so never contained) is told: go on. */
const NEVER_CONTAINED: LimitDecision = {
  allowed: true,
  limit: 1,
  remaining: 1,
  resetSeconds: 0,
  retryAfterSeconds: 0,
  unavailable: false,
};

/**
 * Whether sign-ins to the organization from this address are refused now (the decision carries the 429). The one
 * check every sign-in path makes, through `createSourceContainmentGate` or, before a factor is verified or a mail
 * sent, directly. Like every throttle it fails closed: a limiter that cannot answer refuses.
 */
export function sourceContainment(limiter: Limiter, source: Source): Promise<LimitDecision> {
  if (isIP(source.sourceIp) === 0) return Promise.resolve(NEVER_CONTAINED);
  return limiter.peek(SOURCE_CONTAINED, keyOf(source));
}

/**
 * The sign-in gate of `contain_source` (Part B 4.9), first of the sign-in module's gates (src/app.ts): every
 * verified first factor of every method (password, magic link, passkey, social, SSO) and the MFA challenge's
 * answer end in `finishSignIn`, which runs it before any session or MFA challenge is made; a contained source is
 * answered 429 with `Retry-After`, and the caller's transaction (the spent link or code with it) rolls back.
 */
export function createSourceContainmentGate(deps: { limiter: Limiter }): SignInGate {
  return async function sourceContainmentGate(_tx, attempt) {
    const contained = await sourceContainment(deps.limiter, { tenantId: attempt.tenantId, sourceIp: attempt.sourceIp });
    if (!contained.allowed) throw throttled(contained);
    return 'pass';
  };
}

/**
 * Contains a source: sign-ins to this organization from this exact address are refused (429) for
 * `CONTAINMENT_SECONDS` from now, whatever the password. Already contained: the running containment stands, not
 * extended. Throws 503 when the limiter cannot record it (nothing was done).
 */
export async function containSource(limiter: Limiter, source: Source): Promise<{ containedForSeconds: number }> {
  const spent = await limiter.consume(SOURCE_CONTAINED, keyOf(source));
  if (spent.unavailable) throw storeDown();
  return { containedForSeconds: spent.resetSeconds };
}

/**
 * Releases a contained source: its containment ends and, once per address and failure window, the address gets
 * its failure budget back (a person judged it harmless). False when it was not contained (ended by itself).
 * Throws 503 when the limiter cannot confirm the release.
 */
export async function releaseSource(limiter: Limiter, source: Source): Promise<boolean> {
  const key = keyOf(source);
  const before = await limiter.peek(SOURCE_CONTAINED, key);
  if (before.unavailable) throw storeDown();
  if (before.allowed) return false;
  await limiter.reset(SOURCE_CONTAINED, key);
  const after = await limiter.peek(SOURCE_CONTAINED, key);
  if (!after.allowed) throw storeDown();
  if ((await limiter.consume(FAILURES_GIVEN_BACK, source.sourceIp)).allowed) {
    await limiter.reset(LOGIN_FAILURES_PER_IP, source.sourceIp);
  }
  return true;
}

/**
 * Raises `credential-stuffing` (group `source:<address>`, severity high) in the organization a sign-in from that
 * address was aimed at, once per organization, address and failure window. Called when the address's failure
 * throttle engages (its last failure spent, or an attempt refused by it): many sign-ins failed from one source,
 * across accounts, since one account's failures stop at its own throttle. The per-account signal is the kernel's
 * `repeated-sign-in-failures` rule (src/kernel/events/rules.ts).
 */
export async function raiseCredentialStuffing(
  deps: {
    limiter: Limiter;
    events: Events;
    inTenant: (tenantId: string, work: (tx: Tx) => Promise<void>) => Promise<void>;
  },
  source: Source,
): Promise<void> {
  if (!(await deps.limiter.consume(STUFFING_RAISED, keyOf(source))).allowed) return;
  await deps.inTenant(source.tenantId, (tx) =>
    deps.events.detect(tx, {
      tenantId: source.tenantId,
      ruleId: CREDENTIAL_STUFFING_RULE,
      groupKey: `source:${source.sourceIp}`,
      severity: 'high',
      data: { source_ip: source.sourceIp },
    }),
  );
}

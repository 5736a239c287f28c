import { enforce, type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';

/**
 * The three layers of the agent token mint (Part B 8), all failing closed with 429, `Retry-After` and the
 * RateLimit headers (the kernel's `throttled`; an unreachable store answers 429 too). Numbers in
 * docs/decisions.md ("Agent tokens").
 */

/** Every mint request from one source address, whatever it presents. */
export const AGENT_MINTS_PER_IP: LimitPolicy = { name: 'agent-mint-ip', points: 3_000, durationSeconds: 300 };

/**
 * Failed mints per presented credential (its SHA-256; the limiter stores a digest of that): only failures move
 * it, so a working credential is never slowed, and a dead one (rotated away, retired) hammered by a forgotten
 * job stops costing look-ups.
 */
export const AGENT_MINT_FAILURES_PER_CREDENTIAL: LimitPolicy = {
  name: 'agent-mint-credential-failures',
  points: 10,
  durationSeconds: 900,
};

/** Tokens issued per organization, charged only once the credential (or attestation) has verified. */
export const AGENT_ISSUANCE_PER_ORGANIZATION: LimitPolicy = {
  name: 'agent-issuance-organization',
  points: 6_000,
  durationSeconds: 300,
};

export function createMintThrottles(limiter: Limiter) {
  return {
    /** Spends one unit of the source address's budget; 429 once it is spent. */
    async admitAddress(ip: string): Promise<void> {
      await enforce(limiter, AGENT_MINTS_PER_IP, ip);
    },
    /** 429 while the credential's failure brake is engaged; spends nothing. */
    async checkCredentialBrake(credentialHash: string): Promise<void> {
      const decision = await limiter.peek(AGENT_MINT_FAILURES_PER_CREDENTIAL, credentialHash);
      if (!decision.allowed) throw throttled(decision);
    },
    /** Counts a failed mint against the credential's brake. */
    async recordCredentialFailure(credentialHash: string): Promise<void> {
      await limiter.consume(AGENT_MINT_FAILURES_PER_CREDENTIAL, credentialHash);
    },
    /** Spends one unit of the organization's issuance allowance; 429 once it is spent. */
    async chargeIssuance(tenantId: string): Promise<void> {
      await enforce(limiter, AGENT_ISSUANCE_PER_ORGANIZATION, tenantId);
    },
  };
}

export type MintThrottles = ReturnType<typeof createMintThrottles>;

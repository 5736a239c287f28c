import type { Principal } from '../../kernel/auth/index.js';
import { hours } from '../../kernel/clock.js';
import { hashPassword, randomSecret, secretsEqual } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { throttled } from '../../kernel/limits/index.js';
import { assertStrongPassword } from '../accounts/index.js';
import type { TokenPair } from '../sign-in/index.js';
import { assertSeatAvailable, DOMAIN_JOIN_PER_IP, type MembersDeps } from './common.js';
import { rethrowUniqueViolation } from './invitations.js';
import { isPublicEmailProvider } from './public-email-providers.js';
import * as store from './store.js';

export const TXT_PREFIX = 'svc-verify=';
/** A verified domain's proof is looked up again at least this often by the worker (and at every join). */
export const RECHECK_AFTER_MS = hours(1);

export interface DomainClaim {
  domain_id: string;
  domain: string;
  /** Publish this TXT record at the domain name itself. */
  txt_record: string;
  verified: boolean;
  verified_at: string | null;
}

const toClaim = (row: store.DomainRow): DomainClaim => ({
  domain_id: row.id,
  domain: row.domain,
  txt_record: `${TXT_PREFIX}${row.verificationValue}`,
  verified: row.verified,
  verified_at: row.verifiedAt?.toISOString() ?? null,
});

/** A DNS name of at least two labels, letters, digits and hyphens, an alphabetic or punycode top label. */
export function normalizeDomain(input: string): string | null {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label))) return null;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!)) return null;
  return domain;
}

const domainOfEmail = (email: string) => normalizeDomain(email.slice(email.lastIndexOf('@') + 1));

const isUniqueViolation = (error: unknown) =>
  ((error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code) === '23505';

export function createDomainService(deps: MembersDeps) {
  const { transactions, organizations, accounts, sessions, settings, events, limiter, dns, clock } = deps;

  /** `present`, `absent` (the name answers without our record), or `unknown` (the look-up failed). */
  async function proof(domain: string, value: string): Promise<'present' | 'absent' | 'unknown'> {
    try {
      const records = await dns.resolveTxt(domain);
      const expected = `${TXT_PREFIX}${value}`;
      return records.some((chunks) => secretsEqual(chunks.join(''), expected)) ? 'present' : 'absent';
    } catch {
      return 'unknown';
    }
  }

  /** The proof is gone: the domain stops being verified, which closes its join door by itself. */
  async function lose(tenantId: string, domainId: string, domain: string): Promise<void> {
    await transactions.tenant(tenantId, async (tx) => {
      if (!(await store.unverifyDomain(tx, tenantId, domainId, clock.now()))) return;
      await events.emit(tx, {
        tenantId,
        actor: { id: 'domain-recheck', type: 'system' },
        category: 'security',
        action: 'domain.unverified',
        severity: 'warn',
        data: { domain_id: domainId, domain, reason: 'txt_record_missing' },
      });
    });
  }

  /**
   * The organization an address may join by its domain: verified there, `members.domain_join_enabled` on,
   * the organization not quarantined, and the TXT proof resolving now (fail closed on a failed look-up).
   */
  async function openDoor(email: string) {
    const domain = domainOfEmail(email);
    if (!domain) return undefined;
    const holder = await transactions.systemRead((q) => store.verifiedHolder(q, domain));
    if (!holder || holder.quarantined) return undefined;
    const enabled = await transactions.tenant(holder.tenantId, (tx) =>
      settings.enabled(tx, holder.tenantId, 'members.domain_join_enabled'),
    );
    if (!enabled) return undefined;
    const found = await proof(domain, holder.verificationValue);
    if (found === 'absent') await lose(holder.tenantId, holder.id, domain);
    return found === 'present' ? holder : undefined;
  }

  async function spendBudget(ip: string): Promise<void> {
    const decision = await limiter.consume(DOMAIN_JOIN_PER_IP, ip);
    if (!decision.allowed) throw throttled(decision);
  }

  return {
    async list(principal: Principal): Promise<DomainClaim[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.domainsOf(tx, principal.tenantId)).map(toClaim),
      );
    },

    /**
     * `POST /members/domains`: 422 for a malformed name or a public mailbox provider; 409 when another
     * organization holds it verified. Claiming a domain already claimed here answers that claim.
     */
    async claim(principal: Principal, input: string): Promise<DomainClaim> {
      const domain = normalizeDomain(input);
      if (!domain) throw unprocessable('domain: is not a valid domain name');
      if (isPublicEmailProvider(domain)) throw unprocessable('domain: public email providers cannot be claimed');
      const { tenantId } = principal;
      // Which organization holds a domain verified is a cross-organization (system) read.
      const holder = await transactions.systemRead((q) => store.verifiedHolder(q, domain));
      if (holder && holder.tenantId !== tenantId) throw conflict('This domain is verified by another organization');
      try {
        return await transactions.tenant(tenantId, async (tx) => {
          const existing = await store.domainByName(tx, tenantId, domain);
          if (existing) return toClaim(existing);
          const row: store.DomainRow = {
            tenantId,
            id: newId(),
            domain,
            verificationValue: randomSecret(24),
            verified: false,
            verifiedAt: null,
            lastCheckedAt: null,
            createdAt: clock.now(),
          };
          await store.insertDomain(tx, row);
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'domain.claimed',
            data: { domain_id: row.id, domain },
          });
          return toClaim(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This domain is already claimed');
        throw error;
      }
    },

    /**
     * `POST /members/domains/{domain_id}/verify`: looks the TXT record up now. Present: verified (409 if
     * another organization verified it first). Absent: not verified (a verified domain loses it). A failed
     * look-up changes nothing.
     */
    async verify(principal: Principal, domainId: string): Promise<{ domain: string; verified: boolean }> {
      const { tenantId } = principal;
      const claim = await transactions.tenant(tenantId, async (tx) =>
        isUuid(domainId) ? store.domainById(tx, tenantId, domainId) : undefined,
      );
      if (!claim) throw notFound();
      const found = await proof(claim.domain, claim.verificationValue);
      if (found === 'unknown') return { domain: claim.domain, verified: claim.verified };
      if (found === 'absent') {
        if (claim.verified) await lose(tenantId, claim.id, claim.domain);
        return { domain: claim.domain, verified: false };
      }
      try {
        await transactions.tenant(tenantId, async (tx) => {
          const current = await store.domainById(tx, tenantId, domainId);
          if (!current) throw notFound();
          await store.setDomainVerified(tx, tenantId, domainId, true, clock.now());
          if (!current.verified) {
            await events.emit(tx, {
              tenantId,
              actor: principal.actor,
              category: 'admin',
              action: 'domain.verified',
              data: { domain_id: domainId, domain: claim.domain },
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This domain is verified by another organization');
        throw error;
      }
      return { domain: claim.domain, verified: true };
    },

    async remove(principal: Principal, domainId: string): Promise<void> {
      const { tenantId } = principal;
      await transactions.tenant(tenantId, async (tx) => {
        const claim = isUuid(domainId) ? await store.domainById(tx, tenantId, domainId) : undefined;
        if (!claim || !(await store.deleteDomain(tx, tenantId, domainId))) throw notFound();
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'domain.deleted',
          data: { domain_id: domainId, domain: claim.domain },
        });
      });
    },

    /**
     * Whether the address's domain is verified by this organization: its proof was found and the worker's re-check
     * (hourly) has not lost it since. Read-only, within the organization's transaction; the join settings do not
     * matter (provisioning uses it to know the organization answers for the address, not to open a door).
     */
    async isVerifiedFor(tx: Tx, tenantId: string, email: string): Promise<boolean> {
      const domain = domainOfEmail(email);
      if (!domain) return false;
      return (await store.domainByName(tx, tenantId, domain))?.verified === true;
    },

    /** `POST /auth/signup/domain-check`: whether the address may join an organization by its domain. */
    async check(email: string, ip: string) {
      await spendBudget(ip);
      const door = await openDoor(email);
      return door
        ? { eligible: true, tenant_slug: door.slug, organization_name: door.name }
        : { eligible: false as const };
    },

    /**
     * `POST /auth/signup/domain`: a new account with a baseline membership in the organization whose verified
     * domain the address is on, signed in. 409 when the address has an account or no open domain matches.
     */
    async join(
      input: { email: string; password: string },
      context: { ip: string; userAgent?: string | undefined },
    ): Promise<TokenPair> {
      await spendBudget(context.ip);
      const door = await openDoor(input.email);
      if (!door) throw conflict('No verified domain open to joining matches this address');
      assertStrongPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const email = input.email.trim();
      return transactions
        .system(async (tx) => {
          const userId = await accounts.createAccount(tx, email, passwordHash);
          await transactions.enterTenant(tx, door.tenantId);
          await assertSeatAvailable(deps, tx, door.tenantId);
          const membershipId = await organizations.memberships.add(tx, {
            tenantId: door.tenantId,
            userId,
            role: 'member',
          });
          const actor = { id: userId, type: 'human' as const };
          await events.emit(tx, {
            tenantId: door.tenantId,
            actor,
            category: 'auth',
            action: 'user.signed_up',
            subjectUserId: userId,
            data: { user_id: userId, population: 'workforce', role: 'member', via: 'domain' },
            webhook: { type: 'user.signed_up', data: { user_id: userId, population: 'workforce' } },
          });
          await events.emit(tx, {
            tenantId: door.tenantId,
            actor,
            category: 'admin',
            action: 'member.joined',
            subjectUserId: userId,
            data: { membership_id: membershipId, user_id: userId, domain: door.domain },
          });
          const { tokens } = await sessions.start(tx, {
            tenantId: door.tenantId,
            userId,
            population: 'workforce',
            epoch: 0,
            amr: ['pwd'],
            userAgent: context.userAgent,
          });
          // The domain proves the organization owns the name, not that the caller owns this mailbox: the account
          // stays unverified until the link mailed to it is followed (docs/organizations.md).
          const sendVerification = await accounts.verificationMail(tx, { userId, email, tenantId: door.tenantId });
          return { tokens, sendVerification };
        })
        .then(({ tokens, sendVerification }) => {
          sendVerification();
          return tokens;
        })
        .catch(rethrowUniqueViolation);
    },

    /**
     * The worker's re-check: verified domains not looked up for an hour are claimed (any node, SKIP LOCKED)
     * and looked up; a missing record unverifies the domain. Answers how many lost their verification.
     */
    async recheckDue(limit = 50): Promise<number> {
      const now = clock.now();
      const due = await transactions.system((tx) =>
        store.claimDueDomains(tx, now, new Date(now.getTime() - RECHECK_AFTER_MS), limit),
      );
      let lost = 0;
      for (const claim of due) {
        if ((await proof(claim.domain, claim.verification_value)) === 'absent') {
          await lose(claim.tenant_id, claim.id, claim.domain);
          lost += 1;
        }
      }
      return lost;
    },
  };
}

export type DomainService = ReturnType<typeof createDomainService>;

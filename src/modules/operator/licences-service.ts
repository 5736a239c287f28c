import type { Principal } from '../../kernel/auth/index.js';
import { planOf } from '../../kernel/authz/plans.js';
import { addMs, days } from '../../kernel/clock.js';
import { prefixedSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { conflict, notFound } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { OperatorDeps } from './deps.js';
import type { LicenceInput } from './http-schemas.js';
import { createLicenceSigner } from './licence-signer.js';
import * as store from './store.js';
import { assertPlanCode } from './tenants-service.js';

/** Part B 5.5: a distribution credential is `zdc_<secret>`; 32 random bytes. */
export const CREDENTIAL_PREFIX = 'zdc_';
const PUBLIC_PREFIX_LENGTH = CREDENTIAL_PREFIX.length + 8;
export const DEFAULT_CREDENTIAL_DAYS = 365;

const iso = (date: Date | null) => date?.toISOString() ?? null;
const statusAt = (revokedAt: Date | null, expiresAt: Date, now: Date) =>
  revokedAt ? ('revoked' as const) : expiresAt.getTime() <= now.getTime() ? ('expired' as const) : ('active' as const);

function licenceView(row: store.LicenceRow, now: Date) {
  return {
    id: row.id,
    licensee: row.licensee,
    install_id: row.installId,
    plan_code: row.planCode,
    term_days: row.termDays,
    maintenance_days: row.maintenanceDays,
    features_extra: row.featuresExtra,
    caps: row.caps,
    tenant_id: row.licensedTenantId,
    status: statusAt(row.revokedAt, row.expiresAt, now),
    issued_at: row.issuedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    maintenance_expires_at: row.maintenanceExpiresAt.toISOString(),
    revoked_at: iso(row.revokedAt),
  };
}

function credentialView(row: store.CredentialRow, now: Date) {
  return {
    id: row.id,
    licence_pk: row.licenceId,
    label: row.label,
    public_prefix: row.publicPrefix,
    status: statusAt(row.revokedAt, row.expiresAt, now),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
  };
}

/**
 * Licences and distribution credentials (Part B 2.9, 3, 4.10). The records belong to the platform-operator
 * organization (the caller's, which the guard has checked), so every query runs held to it.
 */
export function createLicensing(deps: OperatorDeps) {
  const { transactions, events, clock, config } = deps;
  const signer = createLicenceSigner(config.licenceSigningKey, config.baseUrl);

  return {
    /**
     * `POST /operator/licences`: the lifecycle record and the signed bundle, answered once. The maintenance term
     * ends `maintenance_days` (default `term_days`) after issue (ARCHITECTURE.md "Maintenance term").
     */
    async issue(principal: Principal, input: LicenceInput) {
      signer.assertProvisioned();
      assertPlanCode(input.plan_code, 'plan_code');
      const now = clock.now();
      const plan = planOf(input.plan_code);
      const row: store.LicenceRow = {
        tenantId: principal.tenantId,
        id: newId(),
        licensee: input.licensee,
        installId: input.install_id,
        planCode: input.plan_code,
        termDays: input.term_days,
        maintenanceDays: input.maintenance_days ?? null,
        featuresExtra: input.features_extra ?? [],
        caps: (input.caps ?? {}) as Record<string, number | null>,
        licensedTenantId: input.tenant_id ?? null,
        issuedAt: now,
        expiresAt: addMs(now, days(input.term_days)),
        maintenanceExpiresAt: addMs(now, days(input.maintenance_days ?? input.term_days)),
        issuedBy: principal.actor.id,
        revokedAt: null,
        revokedBy: null,
      };
      // Signed before anything is written: a signing failure leaves no record of a licence nobody received.
      const licenceJwt = await signer.sign({
        jti: row.id,
        sub: row.installId,
        iat: row.issuedAt,
        exp: row.expiresAt,
        claims: {
          licensee: row.licensee,
          install_id: row.installId,
          plan_code: row.planCode,
          features: [...new Set([...plan.features, ...row.featuresExtra])],
          features_extra: row.featuresExtra,
          caps: { ...plan.caps, ...row.caps },
          maintenance_expires_at: Math.floor(row.maintenanceExpiresAt.getTime() / 1000),
          ...(row.licensedTenantId ? { tenant_id: row.licensedTenantId } : {}),
        },
      });
      await transactions.tenant(principal.tenantId, async (tx) => {
        await store.insertLicence(tx, row);
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'licence.issued',
          data: {
            licence_id: row.id,
            licensee: row.licensee,
            install_id: row.installId,
            plan_code: row.planCode,
            expires_at: row.expiresAt.toISOString(),
            maintenance_expires_at: row.maintenanceExpiresAt.toISOString(),
          },
        });
      });
      return { ...licenceView(row, now), licence_jwt: licenceJwt };
    },

    async list(principal: Principal) {
      const now = clock.now();
      const rows = await transactions.tenantRead(principal.tenantId, (tx) =>
        store.listLicences(tx, principal.tenantId),
      );
      return rows.map((row) => licenceView(row, now));
    },

    /** Revokes once (409 after): renewals and every distribution credential of the licence stop at once. */
    async revoke(principal: Principal, id: string) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row = await store.revokeLicence(tx, principal.tenantId, id, now, principal.actor.id);
        if (!row) {
          if (await store.licenceById(tx, principal.tenantId, id)) throw conflict('Licence already revoked');
          throw notFound('No such licence');
        }
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'licence.revoked',
          severity: 'warn',
          data: { licence_id: id, licensee: row.licensee, install_id: row.installId },
        });
        return licenceView(row, now);
      });
    },

    /** `POST /operator/distribution-credentials`: `zdc_…` answered once; only its SHA-256 is stored. */
    async issueCredential(principal: Principal, input: { licence_pk: string; label: string; expires_days?: number }) {
      const credential = prefixedSecret(CREDENTIAL_PREFIX);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const licence = await store.licenceById(tx, principal.tenantId, input.licence_pk);
        if (!licence) throw notFound('No such licence');
        if (licence.revokedAt) throw conflict('Licence revoked: it takes no new distribution credentials');
        const now = clock.now();
        const row: store.CredentialRow = {
          tenantId: principal.tenantId,
          id: newId(),
          licenceId: licence.id,
          label: input.label,
          secretHash: sha256Hex(credential),
          publicPrefix: credential.slice(0, PUBLIC_PREFIX_LENGTH),
          createdAt: now,
          createdBy: principal.actor.id,
          expiresAt: addMs(now, days(input.expires_days ?? DEFAULT_CREDENTIAL_DAYS)),
          revokedAt: null,
          revokedBy: null,
          lastUsedAt: null,
        };
        await store.insertCredential(tx, row);
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'distribution_credential.issued',
          data: {
            credential_id: row.id,
            licence_id: licence.id,
            label: row.label,
            public_prefix: row.publicPrefix,
            expires_at: row.expiresAt.toISOString(),
          },
        });
        return { ...credentialView(row, now), credential };
      });
    },

    async listCredentials(principal: Principal) {
      const now = clock.now();
      const rows = await transactions.tenantRead(principal.tenantId, (tx) =>
        store.listCredentials(tx, principal.tenantId),
      );
      return rows.map((row) => credentialView(row, now));
    },

    /** Revokes once (409 after); the credential never authenticates again, on any node (no cache holds it). */
    async revokeCredential(principal: Principal, id: string) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row = await store.revokeCredential(tx, principal.tenantId, id, now, principal.actor.id);
        if (!row) {
          if (await store.credentialExists(tx, principal.tenantId, id)) {
            throw conflict('Distribution credential already revoked');
          }
          throw notFound('No such distribution credential');
        }
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'distribution_credential.revoked',
          severity: 'warn',
          data: { credential_id: id, licence_id: row.licenceId, public_prefix: row.publicPrefix },
        });
        return credentialView(row, now);
      });
    },
  };
}

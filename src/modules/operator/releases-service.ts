import type { Principal } from '../../kernel/auth/index.js';
import { secretsEqual, sha256Hex } from '../../kernel/crypto/index.js';
import { conflict, HttpError, notFound, unprocessable } from '../../kernel/http/index.js';
import { enforce, type LimitPolicy } from '../../kernel/limits/index.js';
import type { OperatorDeps } from './deps.js';
import type { ReleaseInput } from './http-schemas.js';
import { CREDENTIAL_PREFIX } from './licences-service.js';
import type { ReleaseObjectStore } from './object-store.js';
import { checkedRelease, isReleaseVersion } from './rules.js';
import * as store from './store.js';

/** Part B 8: release downloads are throttled per source IP and per credential (presented, known or not). */
export const DOWNLOADS_PER_IP: LimitPolicy = { name: 'release-downloads-ip', points: 120, durationSeconds: 60 };
export const DOWNLOADS_PER_CREDENTIAL: LimitPolicy = {
  name: 'release-downloads-credential',
  points: 20,
  durationSeconds: 600,
};

const CREDENTIAL_SHAPE = /^zdc_[A-Za-z0-9_-]{43}$/;

function releaseView(row: store.ReleaseRow) {
  return {
    version: row.version,
    object_key: row.objectKey,
    checksum_sha256: row.checksumSha256,
    size_bytes: row.sizeBytes,
    published_at: row.publishedAt.toISOString(),
    status: row.yankedAt ? ('yanked' as const) : ('published' as const),
    created_at: row.createdAt.toISOString(),
    yanked_at: row.yankedAt?.toISOString() ?? null,
  };
}

/** The one answer of every refused download (Part B 4.10): the same as an unknown path, byte for byte. */
const refused = () => notFound();

export function createReleases(deps: OperatorDeps & { objects: ReleaseObjectStore | undefined }) {
  const { transactions, events, clock, limiter, objects } = deps;

  return {
    /** `POST /operator/releases`: immutable once published (409 for an existing version). */
    async publish(principal: Principal, input: ReleaseInput) {
      const { version, objectKey, checksum } = checkedRelease(input);
      const publishedAt = new Date(input.published_at);
      if (Number.isNaN(publishedAt.getTime())) throw unprocessable('published_at: must be an RFC 3339 instant');
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row: store.ReleaseRow = {
          tenantId: principal.tenantId,
          version,
          objectKey,
          checksumSha256: checksum,
          sizeBytes: input.size_bytes,
          publishedAt,
          createdAt: clock.now(),
          createdBy: principal.actor.id,
          yankedAt: null,
          yankedBy: null,
        };
        if (!(await store.insertRelease(tx, row))) {
          throw conflict(`Release ${version} exists: published versions are immutable`);
        }
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'release.published',
          data: { version, object_key: objectKey, checksum_sha256: checksum, size_bytes: input.size_bytes },
        });
        return releaseView(row);
      });
    },

    async list(principal: Principal) {
      const rows = await transactions.tenantRead(principal.tenantId, (tx) =>
        store.listReleases(tx, principal.tenantId),
      );
      return rows.map(releaseView);
    },

    /** Yanks once (409 after); the row stays in the catalogue and downloads refuse it. */
    async yank(principal: Principal, version: string) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.yankRelease(tx, principal.tenantId, version, clock.now(), principal.actor.id);
        if (!row) {
          if (await store.releaseExists(tx, principal.tenantId, version)) throw conflict('Release already yanked');
          throw notFound('No such release');
        }
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'release.yanked',
          severity: 'warn',
          data: { version },
        });
        return releaseView(row);
      });
    },

    /**
     * `GET /distribution/releases/{version}`: a short-lived URL of the release object for a live credential of
     * an unrevoked licence whose maintenance term covers the release's `published_at` (a lapsed term keeps the
     * releases published while it ran). Every refusal is one and the same 404.
     */
    async download(input: { ip: string; authorization: string | undefined; version: string }): Promise<string> {
      await enforce(limiter, DOWNLOADS_PER_IP, input.ip);
      const presented = /^Bearer +(\S+)$/i.exec(input.authorization ?? '')?.[1];
      if (presented !== undefined) await enforce(limiter, DOWNLOADS_PER_CREDENTIAL, sha256Hex(presented));
      if (!objects) {
        throw new HttpError(503, 'Release object storage is not configured: set RELEASE_STORE (or DATA_DIR)');
      }
      if (!presented?.startsWith(CREDENTIAL_PREFIX) || !CREDENTIAL_SHAPE.test(presented)) throw refused();
      if (!isReleaseVersion(input.version)) throw refused();
      const hash = sha256Hex(presented);
      const facts = await transactions.systemRead((q) => store.downloadFacts(q, hash, input.version));
      const now = clock.now();
      const release = facts?.release;
      if (
        !facts ||
        !release ||
        !secretsEqual(facts.secretHash, hash) ||
        facts.credentialRevokedAt !== null ||
        facts.credentialExpiresAt.getTime() <= now.getTime() ||
        facts.licenceRevokedAt !== null ||
        release.yankedAt !== null ||
        release.publishedAt.getTime() > facts.maintenanceExpiresAt.getTime()
      ) {
        throw refused();
      }
      const url = await objects.presign(
        { key: release.objectKey, checksumSha256: release.checksumSha256, sizeBytes: release.sizeBytes },
        now,
      );
      await transactions.tenant(facts.tenantId, async (tx) => {
        await store.markCredentialUsed(tx, facts.tenantId, facts.credentialId, now);
        await events.emit(tx, {
          tenantId: facts.tenantId,
          actor: { id: facts.credentialId, type: 'service' },
          category: 'admin',
          action: 'release.downloaded',
          audit: false,
          data: { version: release.version, credential_id: facts.credentialId, licence_id: facts.licenceId },
        });
      });
      return url;
    },
  };
}

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { distributionCredentials, licences, releases } from './schema.js';

export type LicenceRow = typeof licences.$inferSelect;
export type CredentialRow = typeof distributionCredentials.$inferSelect;
export type ReleaseRow = typeof releases.$inferSelect;

// Licences.

export async function insertLicence(q: Queryable, row: LicenceRow): Promise<void> {
  await q.insert(licences).values(row);
}

export async function listLicences(q: Queryable, tenantId: string): Promise<LicenceRow[]> {
  return q
    .select()
    .from(licences)
    .where(eq(licences.tenantId, tenantId))
    .orderBy(desc(licences.issuedAt), desc(licences.id));
}

export async function licenceById(q: Queryable, tenantId: string, id: string): Promise<LicenceRow | undefined> {
  const [row] = await q
    .select()
    .from(licences)
    .where(and(eq(licences.tenantId, tenantId), eq(licences.id, id)))
    .for('update');
  return row;
}

/** Revokes in one statement: of two concurrent revocations exactly one gets the row back. */
export async function revokeLicence(
  q: Queryable,
  tenantId: string,
  id: string,
  at: Date,
  by: string,
): Promise<LicenceRow | undefined> {
  const [row] = await q
    .update(licences)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(licences.tenantId, tenantId), eq(licences.id, id), isNull(licences.revokedAt)))
    .returning();
  return row;
}

// Distribution credentials.

export async function insertCredential(q: Queryable, row: CredentialRow): Promise<void> {
  await q.insert(distributionCredentials).values(row);
}

export async function listCredentials(q: Queryable, tenantId: string): Promise<CredentialRow[]> {
  return q
    .select()
    .from(distributionCredentials)
    .where(eq(distributionCredentials.tenantId, tenantId))
    .orderBy(desc(distributionCredentials.createdAt), desc(distributionCredentials.id));
}

export async function credentialExists(q: Queryable, tenantId: string, id: string): Promise<boolean> {
  const [row] = await q
    .select({ id: distributionCredentials.id })
    .from(distributionCredentials)
    .where(and(eq(distributionCredentials.tenantId, tenantId), eq(distributionCredentials.id, id)));
  return row !== undefined;
}

export async function revokeCredential(
  q: Queryable,
  tenantId: string,
  id: string,
  at: Date,
  by: string,
): Promise<CredentialRow | undefined> {
  const [row] = await q
    .update(distributionCredentials)
    .set({ revokedAt: at, revokedBy: by })
    .where(
      and(
        eq(distributionCredentials.tenantId, tenantId),
        eq(distributionCredentials.id, id),
        isNull(distributionCredentials.revokedAt),
      ),
    )
    .returning();
  return row;
}

export async function markCredentialUsed(q: Queryable, tenantId: string, id: string, at: Date): Promise<void> {
  await q
    .update(distributionCredentials)
    .set({ lastUsedAt: at })
    .where(and(eq(distributionCredentials.tenantId, tenantId), eq(distributionCredentials.id, id)));
}

// Releases.

/** Adds a release unless its version exists (published versions are immutable): true when added. */
export async function insertRelease(q: Queryable, row: ReleaseRow): Promise<boolean> {
  const added = await q
    .insert(releases)
    .values(row)
    .onConflictDoNothing({ target: [releases.tenantId, releases.version] })
    .returning({ version: releases.version });
  return added.length === 1;
}

export async function listReleases(q: Queryable, tenantId: string): Promise<ReleaseRow[]> {
  return q
    .select()
    .from(releases)
    .where(eq(releases.tenantId, tenantId))
    .orderBy(desc(releases.publishedAt), desc(releases.version));
}

export async function releaseExists(q: Queryable, tenantId: string, version: string): Promise<boolean> {
  const [row] = await q
    .select({ version: releases.version })
    .from(releases)
    .where(and(eq(releases.tenantId, tenantId), eq(releases.version, version)));
  return row !== undefined;
}

export async function yankRelease(
  q: Queryable,
  tenantId: string,
  version: string,
  at: Date,
  by: string,
): Promise<ReleaseRow | undefined> {
  const [row] = await q
    .update(releases)
    .set({ yankedAt: at, yankedBy: by })
    .where(and(eq(releases.tenantId, tenantId), eq(releases.version, version), isNull(releases.yankedAt)))
    .returning();
  return row;
}

/** What a download decides on, in one statement: the credential by its hash, its licence and the release. */
export interface DownloadFacts {
  tenantId: string;
  credentialId: string;
  secretHash: string;
  credentialExpiresAt: Date;
  credentialRevokedAt: Date | null;
  licenceId: string;
  licenceRevokedAt: Date | null;
  maintenanceExpiresAt: Date;
  release: Pick<
    ReleaseRow,
    'version' | 'objectKey' | 'checksumSha256' | 'sizeBytes' | 'publishedAt' | 'yankedAt'
  > | null;
}

export async function downloadFacts(
  q: Queryable,
  secretHash: string,
  version: string,
): Promise<DownloadFacts | undefined> {
  const [row] = await q
    .select({
      tenantId: distributionCredentials.tenantId,
      credentialId: distributionCredentials.id,
      secretHash: distributionCredentials.secretHash,
      credentialExpiresAt: distributionCredentials.expiresAt,
      credentialRevokedAt: distributionCredentials.revokedAt,
      licenceId: licences.id,
      licenceRevokedAt: licences.revokedAt,
      maintenanceExpiresAt: licences.maintenanceExpiresAt,
      version: releases.version,
      objectKey: releases.objectKey,
      checksumSha256: releases.checksumSha256,
      sizeBytes: releases.sizeBytes,
      publishedAt: releases.publishedAt,
      yankedAt: releases.yankedAt,
    })
    .from(distributionCredentials)
    .innerJoin(
      licences,
      and(eq(licences.tenantId, distributionCredentials.tenantId), eq(licences.id, distributionCredentials.licenceId)),
    )
    .leftJoin(
      releases,
      and(eq(releases.tenantId, distributionCredentials.tenantId), eq(releases.version, sql`${version}`)),
    )
    .where(eq(distributionCredentials.secretHash, secretHash));
  if (!row) return undefined;
  const { version: found, objectKey, checksumSha256, sizeBytes, publishedAt, yankedAt, ...rest } = row;
  return {
    ...rest,
    release:
      found !== null && objectKey !== null && checksumSha256 !== null && sizeBytes !== null && publishedAt !== null
        ? { version: found, objectKey, checksumSha256, sizeBytes, publishedAt, yankedAt }
        : null,
  };
}

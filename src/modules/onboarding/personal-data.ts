import { and, eq } from 'drizzle-orm';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import { onboardingAttempts } from './schema.js';

/**
 * The onboarding attempt that opened an organization for a person (Part B 4.5): exported with the address it was
 * for, the organization's name and its steps; erased whole (the organization, its members and its audit trail
 * stay). The operator's invite codes are the installation's own records, outside organization-scoped rights.
 */
export const onboardingPersonalData: PersonalDataContributor = {
  name: 'onboarding_attempts',
  tables: ['onboarding_attempts'],
  async export(tx, tenantId, userId) {
    const attempts = await tx
      .select()
      .from(onboardingAttempts)
      .where(and(eq(onboardingAttempts.organizationId, tenantId), eq(onboardingAttempts.ownerUserId, userId)));
    return attempts.map((row) => ({
      attempt_id: row.id,
      email: row.email,
      organization_name: row.organizationName,
      client_info: row.clientInfo ?? null,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      email_confirmed_at: row.emailConfirmedAt?.toISOString() ?? null,
      approved_at: row.approvedAt?.toISOString() ?? null,
      denied_at: row.deniedAt?.toISOString() ?? null,
    }));
  },
  async erase(tx, tenantId, userId) {
    await tx
      .delete(onboardingAttempts)
      .where(and(eq(onboardingAttempts.organizationId, tenantId), eq(onboardingAttempts.ownerUserId, userId)));
  },
};

import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, effectivePolicies, MAX_RETENTION_DAYS } from './retention.js';

const row = (overrides: Partial<Parameters<typeof effectivePolicies>[0][number]> = {}) => ({
  tenantId: '00000000-0000-7000-8000-000000000001',
  dataClass: 'dsr' as const,
  retentionDays: 30,
  enabled: true,
  archiveBeforeDelete: true,
  legalHoldExempt: false,
  notes: 'set by compliance',
  updatedAt: new Date('2026-11-26T10:00:00.000Z'),
  updatedBy: 'u1',
  ...overrides,
});

describe('retention policies as an organization reads them', () => {
  it('reads every class as its default, kept and never purged, until one is set', () => {
    expect(effectivePolicies([])).toEqual(
      [
        ['events', 365],
        ['dsr', 1095],
        ['consent_events', 1825],
      ].map(([dataClass, days]) => ({
        data_class: dataClass,
        retention_days: days,
        enabled: false,
        archive_before_delete: false,
        legal_hold_exempt: false,
        notes: null,
        updated_at: null,
      })),
    );
  });

  it('shows a stored policy in place of its class’s default, the others unchanged', () => {
    const policies = effectivePolicies([row()]);
    expect(policies.map((p) => p.data_class)).toEqual(['events', 'dsr', 'consent_events']);
    expect(policies[1]).toEqual({
      data_class: 'dsr',
      retention_days: 30,
      enabled: true,
      archive_before_delete: true,
      legal_hold_exempt: false,
      notes: 'set by compliance',
      updated_at: '2026-11-26T10:00:00.000Z',
    });
    expect(policies[0]!.updated_at).toBeNull();
    expect(policies[2]!.retention_days).toBe(DEFAULT_POLICIES.consent_events.retentionDays);
  });

  it('keeps the defaults within the longest retention an organization may set', () => {
    for (const { retentionDays } of Object.values(DEFAULT_POLICIES)) {
      expect(retentionDays).toBeGreaterThan(0);
      expect(retentionDays).toBeLessThanOrEqual(MAX_RETENTION_DAYS);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { Principal } from '../../kernel/auth/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { assertMayGrant } from './service.js';

const principal = (kind: Principal['kind'], permissions: string[], isOwner = false): Principal => ({
  kind,
  tenantId: '00000000-0000-7000-8000-000000000001',
  permissions: new Set(permissions),
  isOwner,
  population: null,
  quarantined: false,
  actor: { id: 'x', type: kind === 'agent' ? 'agent' : 'human' },
  attributes: {},
});

const statusOf = (work: () => void) => {
  try {
    work();
    return 200;
  } catch (error) {
    return (error as HttpError).status;
  }
};

describe('who may grant which scopes', () => {
  it('refuses an AI agent principal with 403 whatever it holds', () => {
    const agent = principal('agent', ['tenant:manage', 'members:read'], true);
    expect(statusOf(() => assertMayGrant(agent, []))).toBe(403);
    expect(() => assertMayGrant(agent, ['members:read'])).toThrow(HttpError);
    // Acting for an agent, whatever the principal's kind, is the same.
    const delegated = { ...principal('user', ['tenant:manage'], true), actor: { id: 'a', type: 'agent' as const } };
    expect(statusOf(() => assertMayGrant(delegated, []))).toBe(403);
  });

  it('allows a subset of the caller’s permissions, refuses more and unknown codes (403)', () => {
    const admin = principal('user', ['tenant:manage', 'members:read']);
    expect(statusOf(() => assertMayGrant(admin, ['members:read']))).toBe(200);
    expect(statusOf(() => assertMayGrant(admin, ['members:manage']))).toBe(403);
    expect(statusOf(() => assertMayGrant(admin, ['made:up']))).toBe(403);
    // Even the owner, who holds every permission, holds no unknown one.
    expect(statusOf(() => assertMayGrant(principal('user', [], true), ['made:up']))).toBe(403);
    expect(statusOf(() => assertMayGrant(principal('user', [], true), ['operator:manage']))).toBe(200);
  });
});

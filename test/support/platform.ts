import { expect } from 'vitest';
import { newAccount, request } from './http.js';
import type { TestService } from './service.js';

/**
 * The platform-operator organization of this test file's schema (`svc bootstrap`), and its owner signed in.
 * One per schema: call it once per test file.
 */
export async function bootstrapPlatformOwner(svc: TestService) {
  const { email, password } = newAccount('operator');
  const created = await svc.deps.accounts.bootstrapPlatform({ email, password, organizationName: 'Platform Ops' });
  const login = await request(`${svc.url}/api/v1/auth/login`, {
    json: { email, password, tenant_slug: created.slug },
  });
  expect(login.status, login.text).toBe(200);
  return {
    email,
    password,
    userId: created.userId,
    tenantId: created.tenantId,
    slug: created.slug,
    token: login.body.access_token as string,
  };
}

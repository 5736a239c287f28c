import { expect } from 'vitest';

/** Where SSO round trips return in the tests (`SIGN_IN_RETURN_URL`). */
export const SSO_RETURN_URL = 'https://app.example.test/signed-in';

/** The one-time code an SSO round trip returned with (OIDC and SAML alike). */
export function ssoCodeOf(location: URL): string {
  expect(`${location.origin}${location.pathname}`).toBe(SSO_RETURN_URL);
  expect(location.searchParams.get('sso_error')).toBeNull();
  const code = location.searchParams.get('sso_code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return code!;
}

/** The generic failure: the app's page with `sso_error=true` and nothing else. */
export function expectSsoFailure(location: URL) {
  expect(`${location.origin}${location.pathname}`).toBe(SSO_RETURN_URL);
  expect([...location.searchParams]).toEqual([['sso_error', 'true']]);
}

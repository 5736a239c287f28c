import { describe, expect, it } from 'vitest';
import { cspViolations, openPerson } from '../support/browser.js';
import { organizationWithClient } from '../support/oidc-browser.js';
import { authorizationRequest, signInPagesUnderTest } from './web-support.js';

/**
 * The OpenID Provider's hosted pages in Chromium (issue 6): a person signs in on /login, approves on /consent and
 * lands on the relying party's redirect URI with a code, which the relying party then exchanges.
 */

const { svc, browser, callback, arrivals } = signInPagesUnderTest({ baseUrlIsListenAddress: true });

describe('hosted sign-in and consent in Chromium', () => {
  it('signs in on /login, approves on /consent and lands on the redirect URI with a code that exchanges', async () => {
    const org = await organizationWithClient(svc().url, { name: 'Timesheets', redirect_uris: [callback()] });
    const { state, authorizeUrl, exchange } = await authorizationRequest(svc(), org.client, {
      redirect_uri: callback(),
      scope: 'openid email',
    });

    const { context, page } = await openPerson(browser());
    const violations = cspViolations(page);
    await page.goto(authorizeUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.inputValue('input[name=tenant_slug]')).toBe(org.tenantSlug);
    await page.fill('#email', org.account.email);
    await page.fill('#password', org.account.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/consent'),
      page.click('form[action="/login"] button'),
    ]);
    expect(await page.textContent('main')).toContain('Timesheets wants to');

    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback())), page.click('button[name=approve]')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('code')).toBeTruthy();
    // Chromium may also ask the relying party for /favicon.ico: only the callback's arrival counts.
    const callbacks = arrivals.filter((arrival) => arrival.pathname === '/callback');
    expect(callbacks.at(-1)?.searchParams.get('code')).toBe(landed.searchParams.get('code'));
    expect(violations).toEqual([]);

    // The provider's session cookie is httpOnly and SameSite=Lax: the next authorization needs no page at all.
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_op_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const tokens = await exchange(landed);
    expect(tokens.claims()).toMatchObject({ tid: org.tenantId, amr: ['pwd'] });
    await context.close();
  });
});

import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';

// Shared steps of the payment step-up tests (issue 25): a person with factors, the payment back end's API key, and
// the calls of Part B 4.7 over HTTP.

/** WebAuthn needs a domain RP ID: BASE_URL names one (the service still listens on 127.0.0.1). */
export const BASE = 'https://pay.example.test';
const STEP = 30_000;

export function startPayments(env: Record<string, string> = {}) {
  return startService({
    BASE_URL: BASE,
    TRUST_PROXY: '1',
    PAYMENTS_STEPUP_ENABLED: 'true',
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...env,
  });
}

let ipCounter = 0;
/** A distinct client address per call, so per-address throttles of sign-in never meet across tests. */
export const freshIp = () => {
  ipCounter += 1;
  return `198.51.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

export interface Person {
  token: string;
  userId: string;
  tenantId: string;
  slug: string;
  email: string;
  password: string;
  sid: string;
  refresh: string;
  secret?: string;
  authenticator?: SoftwareAuthenticator;
}

export function paymentsHarness(svc: () => TestService) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;
  const post = (path: string, token: string | undefined, json?: unknown, headers: Record<string, string> = {}) =>
    request(api(path), { method: 'POST', token, ...(json === undefined ? {} : { json }), headers });

  const get = (path: string, token: string) => request(api(path), { token });

  /** The TOTP code an authenticator app shows at the service's (test-moved) time. */
  const codeAt = (secret: string, offsetMs = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc().clock.now().getTime() + offsetMs });
  const nextStep = () => svc().clock.advance(STEP);

  /** A new organization's owner, signed in with a password, with the chosen factors. */
  async function person(factors: { totp?: boolean; passkey?: boolean } = {}): Promise<Person> {
    const account = newAccount('payer');
    const signedUp = await request(api('/auth/signup'), { json: account, headers: { 'x-forwarded-for': freshIp() } });
    expect(signedUp.status, signedUp.text).toBe(201);
    const token = signedUp.body.access_token as string;
    const claims = decodeJwt(token);
    const who: Person = {
      token,
      userId: claims.sub as string,
      tenantId: claims.tid as string,
      slug: account.organization_name.toLowerCase().replace(/ /g, '-'),
      email: account.email,
      password: account.password,
      sid: claims.sid as string,
      refresh: signedUp.body.refresh_token as string,
    };
    // A passkey first: once TOTP is on, adding one needs a session signed in with it.
    if (factors.passkey) {
      who.authenticator = new SoftwareAuthenticator(BASE);
      const options = await post('/webauthn/credentials/options', who.token);
      expect(options.status, options.text).toBe(200);
      const registered = await post(
        '/webauthn/credentials',
        who.token,
        who.authenticator.createCredential(options.body),
      );
      expect(registered.status, registered.text).toBe(201);
    }
    if (factors.totp) {
      const setup = await post('/mfa/setup', who.token, {});
      expect(setup.status, setup.text).toBe(200);
      who.secret = setup.body.secret as string;
      const verified = await post('/mfa/setup/verify', who.token, { code: codeAt(who.secret) });
      expect(verified.status, verified.text).toBe(200);
      nextStep();
    }
    return who;
  }

  /** An API key of the person's organization (they own it) with the given scopes: the payment back end. */
  async function backEndKey(owner: Person, scopes = ['payments:verify']): Promise<string> {
    const created = await post('/tenants/api-keys', owner.token, { label: 'payments back end', scopes });
    expect(created.status, created.text).toBe(201);
    return created.body.key as string;
  }

  const stepUp = (who: Person, json: unknown) =>
    post('/payments/step-up', who.token, json, { 'x-forwarded-for': freshIp() });
  const sca = (who: Person, json: unknown, ip = freshIp()) =>
    post('/payments/sca/challenge', who.token, json, { 'x-forwarded-for': ip });
  const verify = (who: Person, id: string, json: unknown) => post(`/payments/step-up/${id}/verify`, who.token, json);
  const options = (who: Person, id: string) => post(`/payments/step-up/${id}/webauthn-options`, who.token);
  const consume = (key: string, json: unknown) => post('/payments/elevations/consume', key, json);
  const riskContext = (key: string, userId: string, sid: string) =>
    request(api(`/payments/risk/context?user_id=${userId}&sid=${sid}`), { token: key });

  /** A TOTP verification with the current code, then the clock past its step (a code is accepted once). */
  async function verifyTotp(who: Person, id: string) {
    const res = await verify(who, id, { method: 'totp', code: codeAt(who.secret!) });
    nextStep();
    return res;
  }

  /** A passkey verification: fresh options for the ask, answered by the person's software authenticator. */
  async function verifyPasskey(who: Person, id: string, overrides: { userVerified?: boolean } = {}) {
    const opts = await options(who, id);
    expect(opts.status, opts.text).toBe(200);
    const credential = who.authenticator!.getAssertion(opts.body, overrides);
    return verify(who, id, { method: 'webauthn', credential, credential_raw_id: credential.rawId });
  }

  /** The consume body of an elevation answer, exactly as bound. */
  const boundOf = (elevation: Record<string, any>) => ({
    elevation_id: elevation.elevation_id,
    user_id: elevation.user_id,
    sid: elevation.sid,
    action: elevation.action,
    ...(elevation.context === null ? {} : { context: elevation.context }),
  });

  /** Verifies an attestation as a payment back end would: the service's published JWKS, issuer and type. */
  async function verifyAttestation(attestation: string) {
    const jwks = await request(`${svc().url}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const { payload, protectedHeader } = await jwtVerify(attestation, createLocalJWKSet(jwks.body), {
      issuer: BASE,
      typ: 'payment-attestation+jwt',
      currentDate: svc().clock.now(),
    });
    return { payload, protectedHeader };
  }

  const eventsOf = (tenantId: string, prefix = 'elevation.') =>
    rows<{ action: string; data: Record<string, unknown>; actor_type: string; outcome: string }>(
      svc().deps.database.db,
      sql`select action, data, actor_type, outcome from events
          where tenant_id = ${tenantId} and action like ${`${prefix}%`} order by occurred_at, action`,
    );

  const elevationsOf = (userId: string) =>
    rows<{ id: string }>(svc().deps.database.db, sql`select id from payment_elevations where user_id = ${userId}`);

  return {
    api,
    get,
    post,
    codeAt,
    nextStep,
    person,
    backEndKey,
    stepUp,
    sca,
    verify,
    options,
    consume,
    riskContext,
    verifyTotp,
    verifyPasskey,
    boundOf,
    verifyAttestation,
    eventsOf,
    elevationsOf,
  };
}

import { randomBytes } from 'node:crypto';
import type { Principal } from '../../kernel/auth/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import {
  assertOutboundUrl,
  type Egress,
  EgressError,
  type EgressResponse,
  fetchJsonDocument,
} from '../../kernel/net/index.js';
import { assertPlanAllowsSso, configured, emitAdmin, type SsoDeps } from './common.js';
import type { OidcConfigService } from './oidc-config.js';
import * as store from './store.js';

export type CheckName = 'discovery' | 'jwks' | 'credentials';

export interface Check {
  name: CheckName;
  ok: boolean;
  detail: string;
}

export interface TestReport {
  ok: boolean;
  tested_at: string;
  checks: Check[];
}

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: unknown;
}

/**
 * Per organization: each test makes up to three outbound requests to hosts its admin chose, so an unbounded test
 * call would turn this service into a request generator. Ten a minute is ample for an admin fixing a setup.
 */
export const CONNECTION_TESTS_PER_ORGANIZATION: LimitPolicy = {
  name: 'sso-oidc-test',
  points: 10,
  durationSeconds: 60,
};

const TIMEOUT_MS = 5_000;
const TOKEN_ANSWER_BYTES = 16 * 1024;

/** Text from the identity provider shown to the admin: printable ASCII only, bounded. */
const printable = (value: unknown, max = 200) =>
  typeof value === 'string' ? value.replace(/[^\x20-\x7E]/g, '?').slice(0, max) : undefined;

/** Why a request produced no usable answer, in words an admin can act on (egress reasons are safe to show). */
function unreachable(what: string, url: string, error: unknown): string {
  if (error instanceof EgressError) return `${what} ${url} could not be fetched: ${error.code} (${error.reason})`;
  throw error;
}

function json(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An endpoint taken from the provider's metadata must pass the same outbound rule as the issuer. */
function endpointProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return `the provider metadata has no ${field}`;
  try {
    assertOutboundUrl(value, field);
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return `the provider metadata's ${error.detail}`;
    throw error;
  }
}

/**
 * OpenID Connect Discovery 1.0 section 4: `{issuer}/.well-known/openid-configuration` (a terminating `/` of the
 * issuer removed), a JSON object whose `issuer` equals the configured issuer exactly (section 4.3), with the
 * endpoints a sign-in needs. The sign-in flow (relying-party.ts) reads the provider's metadata through it too.
 */
export async function discover(egress: Egress, issuer: string): Promise<{ check: Check; metadata?: Discovery }> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const fail = (detail: string) => ({ check: { name: 'discovery' as const, ok: false, detail } });
  const fetched = await fetchJsonDocument(egress, url, 'discovery document');
  if ('problem' in fetched) return fail(fetched.problem);
  const metadata = fetched.document;
  if (metadata.issuer !== issuer) {
    return fail(
      `the discovery document names issuer "${printable(metadata.issuer) ?? ''}", not the configured "${issuer}" ` +
        '(OpenID Connect Discovery 4.3 requires them to be identical)',
    );
  }
  for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
    const endpoint = endpointProblem(field, metadata[field]);
    if (endpoint) return fail(endpoint);
  }
  return {
    check: { name: 'discovery', ok: true, detail: `discovery document at ${url} names this issuer` },
    metadata: metadata as unknown as Discovery,
  };
}

/** The signing keys of ID tokens (RFC 7517 JWK Set): reachable and not empty. */
async function fetchKeys(egress: Egress, jwksUri: string): Promise<Check> {
  const fail = (detail: string): Check => ({ name: 'jwks', ok: false, detail });
  const fetched = await fetchJsonDocument(egress, jwksUri, 'key set');
  if ('problem' in fetched) return fail(fetched.problem);
  const keys = fetched.document.keys;
  if (!Array.isArray(keys)) return fail(`key set ${jwksUri} is not a JWK Set (no "keys" array)`);
  const usable = keys.filter((key) => key && typeof key === 'object' && typeof key.kty === 'string');
  if (usable.length === 0) return fail(`key set ${jwksUri} holds no keys`);
  return { name: 'jwks', ok: true, detail: `key set at ${jwksUri} holds ${usable.length} key(s)` };
}

/** RFC 6749 section 2.3.1: client id and secret are form-encoded before they are joined for HTTP Basic. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * Proves the client credentials without a user: an authorization-code grant with a code that cannot exist,
 * authenticated as the client. The token endpoint authenticates the client before it looks at the code
 * (RFC 6749 section 5.2), so `invalid_client` (usually 401) means the id or secret is wrong and `invalid_grant`
 * means they were accepted and only the made-up code was refused. The client-credentials grant would be simpler
 * but many providers do not allow it for sign-in clients.
 */
async function proveCredentials(
  egress: Egress,
  metadata: Discovery,
  client: { clientId: string; clientSecret: string },
): Promise<Check> {
  const fail = (detail: string): Check => ({ name: 'credentials', ok: false, detail });
  // OpenID Connect Discovery section 3: client_secret_basic when the provider does not say.
  const supported = Array.isArray(metadata.token_endpoint_auth_methods_supported)
    ? metadata.token_endpoint_auth_methods_supported
    : ['client_secret_basic'];
  const method = supported.includes('client_secret_basic')
    ? 'client_secret_basic'
    : supported.includes('client_secret_post')
      ? 'client_secret_post'
      : undefined;
  if (!method) return fail('the provider supports neither client_secret_basic nor client_secret_post');
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: randomBytes(24).toString('base64url') });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (method === 'client_secret_basic') {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', client.clientId);
    form.set('client_secret', client.clientSecret);
  }
  const url = metadata.token_endpoint;
  let response: EgressResponse;
  try {
    response = await egress.request(url, {
      method: 'POST',
      headers,
      body: form.toString(),
      timeoutMs: TIMEOUT_MS,
      maxBodyBytes: TOKEN_ANSWER_BYTES,
    });
  } catch (error) {
    return fail(unreachable('token endpoint', url, error));
  }
  const answer = json(response.body) ?? {};
  const error = printable(answer.error, 64);
  const description = printable(answer.error_description);
  const said = `${error ?? 'no error code'}${description ? `: ${description}` : ''}`;
  if (response.status === 401 || error === 'invalid_client') {
    return fail(`the provider rejected the client id or secret (HTTP ${response.status}, ${said})`);
  }
  if (error === 'invalid_grant') {
    return {
      name: 'credentials',
      ok: true,
      detail: `client authenticated with ${method} (the provider refused only the probe code: invalid_grant)`,
    };
  }
  if (error === 'unauthorized_client') {
    return fail('the client authenticated but may not use the authorization code grant (unauthorized_client)');
  }
  return fail(`unexpected answer from the token endpoint ${url}: HTTP ${response.status} (${said})`);
}

/** Why the credentials check of a connection without a secret (a manifest's scaffold) does not run. */
export const NO_SECRET =
  'not run: the connection has no client secret yet (a manifest scaffolded it); give it with PUT /api/v1/tenants/sso/oidc';

/**
 * The three checks in order; a check that cannot run because an earlier one failed, or because the connection has
 * no secret yet (`clientSecret` undefined: it fails), is reported as not run.
 */
export async function runChecks(
  egress: Egress,
  connection: { issuer: string; clientId: string; clientSecret: string | undefined },
): Promise<Check[]> {
  const { check: discovery, metadata } = await discover(egress, connection.issuer);
  if (!metadata) {
    const skipped = 'not run: discovery failed';
    return [
      discovery,
      { name: 'jwks', ok: false, detail: skipped },
      { name: 'credentials', ok: false, detail: skipped },
    ];
  }
  const { clientSecret } = connection;
  const [jwks, credentials] = await Promise.all([
    fetchKeys(egress, metadata.jwks_uri),
    clientSecret === undefined
      ? { name: 'credentials' as const, ok: false, detail: NO_SECRET }
      : proveCredentials(egress, metadata, { clientId: connection.clientId, clientSecret }),
  ]);
  return [discovery, jwks, credentials];
}

/**
 * `POST /tenants/sso/oidc/test` (Part A 4.6): proves discovery, the key set and the client credentials through
 * the kernel's egress client. Upstream failures are results (200, `ok: false`), never this service's 5xx. The
 * network part runs outside any transaction; the outcome is recorded on the configuration it tested.
 */
export function createConnectionTest(deps: SsoDeps & { config: Pick<OidcConfigService, 'openSecret'> }) {
  const { transactions, events, clock, egress, limiter } = deps;
  return {
    async test(principal: Principal): Promise<TestReport> {
      const row = await transactions.tenant(principal.tenantId, async (tx) => {
        const found = await configured(tx, principal.tenantId);
        await assertPlanAllowsSso(deps, tx, principal.tenantId);
        return found;
      });
      // Spent only by calls that would reach the network (not the 404/403 ones), outside the transaction.
      const budget = await limiter.consume(CONNECTION_TESTS_PER_ORGANIZATION, principal.tenantId);
      if (!budget.allowed) throw throttled(budget);
      const checks = await runChecks(egress, {
        issuer: row.issuer,
        clientId: row.clientId,
        clientSecret: deps.config.openSecret(row),
      });
      const ok = checks.every((check) => check.ok);
      const at = clock.now();
      await transactions.tenant(principal.tenantId, async (tx) => {
        const recorded = await store.recordTest(tx, principal.tenantId, row.updatedAt, { at, ok });
        await emitAdmin(events, tx, principal, 'sso.oidc_tested', {
          protocol: 'oidc',
          issuer: row.issuer,
          ok,
          failed: checks.filter((check) => !check.ok).map((check) => check.name),
          recorded,
        });
      });
      return { ok, tested_at: at.toISOString(), checks };
    },
  };
}

export type ConnectionTest = ReturnType<typeof createConnectionTest>;

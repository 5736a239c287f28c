import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * A real OpenID Provider (`oidc-provider` 8) served over TLS as `https://secure.example.test` (the test
 * certificate's name), playing Google or an organization's identity provider. The service reaches it through
 * its egress client with a test route (EGRESS_TEST_ROUTES, EGRESS_TEST_CA_FILE); the test's browser reaches it
 * with `IdpBrowser`, which connects to the loopback port under that name. Its dev interactions take any login:
 * the login is the account id, and `people` says what the provider asserts about it.
 */
const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);
export const IDP_HOST = 'secure.example.test';
export const IDP_ISSUER = `https://${IDP_HOST}`;
export const TEST_CA_FILE = new URL('ca.pem', testdata).pathname;
const CA = readFileSync(TEST_CA_FILE);
export const IDP_TLS = {
  key: readFileSync(new URL('server-key.pem', testdata)),
  cert: readFileSync(new URL('server-cert.pem', testdata)),
};

/** What the provider asserts about an account (OIDC Core 5.1 standard claims). */
export interface IdpPerson {
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

/** The part of oidc-provider 8 used here (the package ships no type declarations). */
interface OidcProviderInstance {
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  Grant: new (input: {
    clientId: string;
    accountId: string;
  }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  } & { find?: unknown };
}
type OidcProviderClass = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;
const OIDC_PROVIDER = 'oidc-provider';

export interface UpstreamIdp {
  issuer: string;
  port: number;
  /** `EGRESS_TEST_ROUTES` entry sending the provider's name to its loopback port. */
  route: string;
  people: Map<string, IdpPerson>;
  /** The provider's signing key (private), to sign logout tokens a test crafts. */
  signingJwk: JWK;
  /** Registers a confidential client (RFC 7591) and answers its id and secret. */
  registerClient(metadata: Record<string, unknown>): Promise<{ client_id: string; client_secret: string }>;
  close(): Promise<void>;
}

export async function startUpstreamIdp(options: {
  clients: Array<Record<string, unknown>>;
  /** Put the scope claims (email, profile) in the ID token, as Google does; otherwise only UserInfo has them. */
  claimsInIdToken: boolean;
}): Promise<UpstreamIdp> {
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: OidcProviderClass };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'upstream-key-1', alg: 'RS256', use: 'sig' };
  const people = new Map<string, IdpPerson>();
  const provider = new Provider(IDP_ISSUER, {
    clients: options.clients,
    jwks: { keys: [signingJwk] },
    cookies: { keys: ['upstream-idp-test-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: !options.claimsInIdToken,
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    // Clients register dynamically (RFC 7591): their redirect URIs name organizations made by the test.
    features: {
      backchannelLogout: { enabled: true },
      devInteractions: { enabled: true },
      registration: { enabled: true },
    },
    pkce: { required: () => true },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...people.get(id) }),
    }),
    // Consent is granted up front (a first-party application of the organization): no consent page.
    loadExistingGrant: async (ctx: {
      oidc: {
        client: { clientId: string };
        session: { accountId: string; grantIdFor(clientId: string): string | undefined };
        result?: { consent?: { grantId?: string } };
        provider: OidcProviderInstance & { Grant: { find(id: string): Promise<unknown> } };
      };
    }) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const server: Server = createServer(IDP_TLS, provider.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    issuer: IDP_ISSUER,
    port,
    route: `${IDP_HOST}=127.0.0.1:${port}`,
    people,
    signingJwk,
    async registerClient(metadata) {
      const answer = await new IdpBrowser(port).send(`${IDP_ISSUER}/reg`, undefined, {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...metadata,
      });
      if (answer.status !== 201) throw new Error(`client registration answered ${answer.status}: ${answer.html}`);
      return JSON.parse(answer.html);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the browsers and the egress client would hold the close open.
        server.closeAllConnections();
      }),
  };
}

/**
 * A browser for the provider's pages: HTTPS to the loopback port under the provider's name (trusting the test CA),
 * with a cookie jar, following nothing by itself.
 */
export class IdpBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly port: number) {}

  async send(
    url: string,
    form?: Record<string, string>,
    json?: unknown,
  ): Promise<{ status: number; location: string | null; html: string }> {
    const target = new URL(url);
    const body = form ? new URLSearchParams(form).toString() : json ? JSON.stringify(json) : undefined;
    const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          servername: target.hostname,
          ca: CA,
          method: body ? 'POST' : 'GET',
          path: `${target.pathname}${target.search}`,
          headers: {
            host: target.host,
            ...(this.cookies.size > 0
              ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
              : {}),
            ...(body ? { 'content-type': contentType } : {}),
          },
        },
        (response) => {
          for (const line of response.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const eq = pair!.indexOf('=');
            const name = pair!.slice(0, eq).trim();
            const value = pair!.slice(eq + 1).trim();
            if (/expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
            else this.cookies.set(name, value);
          }
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              location: typeof response.headers.location === 'string' ? response.headers.location : null,
              html: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /**
   * Follows an authorization URL through the provider's sign-in (dev interactions: any login, the login is the
   * account id) and answers the URL the provider finally sends the browser to: our callback.
   */
  async signIn(authorizationUrl: string, login: string): Promise<string> {
    let step = await this.send(authorizationUrl);
    for (let hop = 0; hop < 10; hop += 1) {
      if (step.status === 302 || step.status === 303) {
        const location = new URL(step.location!, IDP_ISSUER);
        if (location.origin !== IDP_ISSUER) return location.toString();
        step = await this.send(location.toString());
        continue;
      }
      const action = /<form[^>]*action="([^"]+)"/.exec(step.html)?.[1];
      if (step.status !== 200 || !action) throw new Error(`unexpected provider page ${step.status}: ${step.html}`);
      const fields: Record<string, string> = {};
      for (const match of step.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) {
        fields[match[1]!] = match[2]!;
      }
      if (/name="login"/.test(step.html)) Object.assign(fields, { login, password: 'any password' });
      step = await this.send(new URL(action.replace(/&amp;/g, '&'), IDP_ISSUER).toString(), fields);
    }
    throw new Error('too many redirects at the provider');
  }

  /** Ends the provider session (RP-independent logout): the provider sends back-channel logout tokens. */
  async logOut(): Promise<void> {
    const page = await this.send(`${IDP_ISSUER}/session/end`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page.html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.html)?.[1];
    if (!action || !xsrf) throw new Error(`unexpected end-session page ${page.status}: ${page.html}`);
    const done = await this.send(new URL(action, IDP_ISSUER).toString(), { xsrf, logout: 'yes' });
    if (done.status !== 303 && done.status !== 302 && done.status !== 200) {
      throw new Error(`end session answered ${done.status}: ${done.html}`);
    }
  }
}

// node-oidc-provider as a peer of the service (bench/peers.mjs, docs/benchmarks.md): one confidential client
// (client_credentials, authorization_code, refresh_token; client_secret_basic), one public client with PKCE,
// RS256 signing, JWT access tokens for client_credentials (resource indicators, RFC 8707), refresh tokens
// rotated on every use like the service's. Started as a child process, one per setup.
//
// env: PORT, OIDC_ADAPTER (`redis` or `memory`: the provider's default in-memory adapter), REDIS_URL,
// OIDC_REDIS_PREFIX, BENCH_CLIENT_SECRET, BENCH_ACCOUNT_ID, BENCH_ACCOUNT_EMAIL.
//
// Signing in is not what is measured: /interaction/<uid> signs the one bench account in and grants the
// requested scopes at once (no page). The loads then reuse that browser session, like the service's standing
// consent in bench/oauth.mjs, so /auth answers with a code directly.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { redisAdapter } from './redis-adapter.mjs';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const accountId = process.env.BENCH_ACCOUNT_ID ?? 'bench-account';
const email = process.env.BENCH_ACCOUNT_EMAIL ?? 'bench@example.com';
const REDIRECT = 'http://127.0.0.1:9/callback';
const RESOURCE = 'urn:bench:api';

const redis =
  process.env.OIDC_ADAPTER === 'redis'
    ? redisAdapter(
        process.env.REDIS_URL,
        process.env.OIDC_REDIS_PREFIX ?? `oidc-bench:${randomBytes(4).toString('hex')}:`,
      )
    : undefined;

const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

const provider = new Provider(issuer, {
  adapter: redis?.RedisAdapter,
  clients: [
    {
      client_id: 'bench-confidential',
      client_secret: process.env.BENCH_CLIENT_SECRET,
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'bench-public',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    },
  ],
  jwks: { keys: [{ ...signingKey, kid: 'bench-rs256', alg: 'RS256', use: 'sig' }] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  scopes: ['openid', 'email', 'offline_access', 'api:read'],
  pkce: { required: () => true },
  // Like the service: a refresh token whenever the client has the grant (the provider's default also asks for
  // offline_access, which it drops unless prompt=consent: a consent page on every authorization), and every
  // refresh rotates it; a spent one presented again ends the grant.
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: true,
  ttl: {
    AccessToken: 900,
    ClientCredentials: 900,
    AuthorizationCode: 60,
    IdToken: 3600,
    RefreshToken: 30 * 24 * 3600,
    Grant: 30 * 24 * 3600,
    Session: 24 * 3600,
    Interaction: 600,
  },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    userinfo: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // client_credentials without `resource` gets a JWT access token for the bench API (as the service's
      // grant gets one for `svc-services`); the code flow's access token stays the provider's default
      // (opaque, for UserInfo).
      defaultResource: (ctx, _client, oneOf) =>
        oneOf ?? (ctx.oidc.params?.grant_type === 'client_credentials' ? RESOURCE : undefined),
      getResourceServerInfo: () => ({
        scope: 'api:read',
        audience: RESOURCE,
        accessTokenTTL: 900,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
      useGrantedResource: () => false,
    },
  },
  // A real deployment reads the account from its store on every UserInfo and ID token: the Redis setup reads
  // it from Redis (one GET), the in-memory one (client_credentials only, which reads no account) answers it.
  findAccount: async (_ctx, sub) => {
    const claims = redis ? await redis.accounts.find(sub) : { sub, email, email_verified: true };
    return claims && { accountId: sub, claims: () => claims };
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  renderError: (ctx, out) => {
    ctx.type = 'json';
    ctx.body = out;
  },
});

/** Signs the bench account in and grants what the client asked for, at once. */
async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

if (redis) await redis.accounts.save(accountId, { sub: accountId, email, email_verified: true });

const callback = provider.callback();
const server = createServer((req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interaction(req, res).catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
    return;
  }
  callback(req, res);
});

const close = () => {
  server.closeAllConnections();
  server.close(async () => {
    if (redis) {
      await redis.removeAll().catch(() => {});
      await redis.quit().catch(() => {});
    }
    process.exit(0);
  });
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');

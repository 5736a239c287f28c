// The providers of bench/peers.mjs, each started in its own process and prepared over HTTP (docs/benchmarks.md,
// "Against the peers"). Each answers `{ name, pid, setup, workloads, stop }`: `workloads.<name>(seconds,
// warmup)` runs one load of that workload and resolves to its figures; bench/peers.mjs decides the order.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  authorizationUrl,
  Browser,
  basicAuth,
  clientCredentialsLoadOptions,
  codeExchange,
  exchangeLoad,
  perConnectionGet,
  postForm,
  REDIRECT,
  refreshChainLoad,
} from './peer-loads.mjs';
import {
  allowanceSql,
  hostedPages,
  logins,
  ROOT,
  registerClient,
  signInLoadOptions,
  signUpOrganization,
  startService,
} from './service.mjs';
import {
  baseEnv,
  cannon,
  freePort,
  log,
  ownerSql,
  postJson,
  startChild,
  stopChild,
  summarize,
  waitForHttp,
} from './util.mjs';

export const PEERS_DIR = join(ROOT, 'bench', 'peers');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** An OAuth provider's authorization-code flow for a public client with PKCE (bench/peer-loads.mjs). */
function publicClientFlow({ base, authorizePath, tokenPath, clientId, page }) {
  return {
    page,
    authorizeUrl: (challenge) => authorizationUrl({ base, authorizePath, clientId, challenge }),
    exchange: async (code, verifier) => {
      const answer = await postForm(new URL(tokenPath, base), {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
      });
      if (answer.status !== 200 || !answer.json?.id_token || !answer.json?.refresh_token) {
        throw new Error(`token endpoint answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      return answer.json;
    },
  };
}

/** `workers` browsers, each signed in once (its first authorization meets the sign-in and consent pages). */
async function signedInBrowsers(flow, base, workers) {
  const browsers = [];
  for (let i = 0; i < workers; i++) {
    const browser = new Browser(base);
    await codeExchange(flow, browser);
    browsers.push(browser);
  }
  return browsers;
}

/** `count` exchanges spread over the browsers; their token responses. */
async function grants(flow, browsers, count) {
  const out = [];
  await Promise.all(
    browsers.map(async (browser) => {
      while (out.length < count) out.push(await codeExchange(flow, browser));
    }),
  );
  return out.slice(0, count);
}

/**
 * The OAuth workloads shared by the service and oidc-provider: client_credentials, and with a code flow the full
 * code exchange, refresh-token rotation (one chain per connection, a fresh set for every load) and UserInfo.
 */
async function oauthWorkloads(context, { name, tokenUrl, userinfoUrl, credentials, ccScope, flow, browsers }) {
  const c = context.settings.connections;
  const cc = clientCredentialsLoadOptions(tokenUrl, credentials, ccScope, c);
  const out = { client_credentials: async (duration) => summarize(await cannon({ ...cc, duration })) };
  if (!flow) return out;
  // A fresh set of refresh-token chains for every load of the workload (the warm-up and each segment): the
  // answers to the requests in flight when a load stops are lost, so its chains cannot go on. Presenting one
  // of those spent tokens again would revoke the grant (and, at oidc-provider, every token of the browser's
  // one grant), which the loads must never do.
  const sets = context.settings.rounds + 1;
  const tokens = await grants(flow, browsers, (sets + 1) * c);
  const clientId = new URL(flow.authorizeUrl('x')).searchParams.get('client_id');
  const chainSets = Array.from({ length: sets }, (_, i) =>
    tokens.slice(i * c, (i + 1) * c).map((t) => ({ token: t.refresh_token })),
  );
  const bearer = tokens.slice(sets * c).map((t) => ({ authorization: `Bearer ${t.access_token}` }));
  const probe = await fetch(userinfoUrl, { headers: bearer[0] });
  if (probe.status !== 200) throw new Error(`${name} UserInfo answered ${probe.status}: ${await probe.text()}`);
  out.code_exchange = (duration) => exchangeLoad(flow, browsers, duration);
  let nextSet = 0;
  out.refresh = (duration) =>
    refreshChainLoad({
      url: tokenUrl,
      chains: chainSets[nextSet++],
      duration,
      headers: FORM,
      body: (token) =>
        new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }).toString(),
    });
  out.userinfo = (duration) => perConnectionGet(userinfoUrl, bearer, c, duration);
  return out;
}

/** This service on PostgreSQL and Redis: every workload. */
export async function prepareService(context) {
  const { settings, databaseUrl, redisUrl, runId } = context;
  const schema = `bench_peers_${runId}`;
  context.schemas.push(schema);
  const secretKey = randomBytes(32).toString('hex');
  let service = await startService({ databaseUrl, redisUrl, schema, secretKey });
  const org = await signUpOrganization(service.base, runId);
  const confidential = await registerClient(service.base, org.owner, {
    name: 'Bench confidential',
    client_type: 'confidential',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'client_credentials'],
  });
  const publicClient = await registerClient(service.base, org.owner, {
    name: 'Bench public',
    client_type: 'public',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
  });
  // The plan's 60 requests per client and 5 minutes would cut the loads short: raised for the run, then a
  // restart so that no cache holds the old figure.
  await stopChild(service.handle);
  await ownerSql({ databaseUrl, schema }, allowanceSql(org.tenantId));
  service = await startService({ databaseUrl, redisUrl, schema, secretKey });
  const { base } = service;
  const pid = service.handle.child.pid;

  const flow = publicClientFlow({
    base,
    authorizePath: '/api/v1/oauth/authorize',
    tokenPath: '/api/v1/oauth/token',
    clientId: publicClient.client_id,
    page: hostedPages(org.login),
  });
  const browsers = await signedInBrowsers(flow, base, settings.exchangeWorkers);
  const workloads = await oauthWorkloads(context, {
    name: 'service',
    tokenUrl: `${base}/api/v1/oauth/token`,
    userinfoUrl: `${base}/api/v1/oauth/userinfo`,
    credentials: basicAuth(confidential.client_id, confidential.client_secret),
    ccScope: 'openid',
    flow,
    browsers,
  });
  const meTokens = (await logins(base, org.login, settings.connections)).map((pair) => ({
    authorization: `Bearer ${pair.access_token}`,
  }));
  workloads.authenticated_read = (duration) =>
    perConnectionGet(`${base}/api/v1/me`, meTokens, settings.connections, duration);
  const signIn = signInLoadOptions(base, org.login, settings.loginConnections);
  workloads.password_sign_in = async (duration) => summarize(await cannon({ ...signIn, duration }));
  return {
    name: 'service',
    pid,
    setup: 'PostgreSQL (own schema) and Redis; public client with PKCE, confidential client (HTTP Basic)',
    workloads,
    stop: () => stopChild(service.handle),
  };
}

/** oidc-provider with `adapter` (redis or memory): client_credentials, and with Redis the code flow too. */
export async function prepareOidcProvider(context, adapter) {
  const { settings, redisUrl, runId } = context;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const secret = randomBytes(24).toString('hex');
  const handle = startChild(`oidc-${adapter}`, process.execPath, [join(PEERS_DIR, 'oidc-provider-server.mjs')], {
    cwd: PEERS_DIR,
    env: {
      ...baseEnv(),
      NODE_ENV: 'production',
      PORT: String(port),
      OIDC_ADAPTER: adapter,
      REDIS_URL: redisUrl,
      OIDC_REDIS_PREFIX: `bench-oidc-${runId}:`,
      BENCH_CLIENT_SECRET: secret,
      BENCH_ACCOUNT_ID: `bench-${runId}`,
      BENCH_ACCOUNT_EMAIL: `bench-${runId}@example.com`,
    },
  });
  log(`starting oidc-provider (${adapter} adapter) on ${base}`);
  await waitForHttp(`${base}/.well-known/openid-configuration`, handle);
  const pid = handle.child.pid;
  // The code flow runs against the Redis setup only: the default in-memory adapter keeps 1,000 entries
  // (an LRU) and drops sessions and grants under load; it is the provider's best case for client_credentials.
  const flow =
    adapter === 'redis'
      ? publicClientFlow({ base, authorizePath: '/auth', tokenPath: '/token', clientId: 'bench-public' })
      : undefined;
  const browsers = flow ? await signedInBrowsers(flow, base, settings.exchangeWorkers) : [];
  const workloads = await oauthWorkloads(context, {
    name: `oidc-provider (${adapter})`,
    tokenUrl: `${base}/token`,
    userinfoUrl: `${base}/me`,
    credentials: basicAuth('bench-confidential', secret),
    ccScope: 'api:read',
    flow,
    browsers,
  });
  return {
    name: `oidc_provider_${adapter}`,
    pid,
    setup:
      adapter === 'redis'
        ? 'oidc-provider with a Redis adapter (bench/peers/redis-adapter.mjs), RS256, JWT access tokens for client_credentials'
        : 'oidc-provider with its default in-memory adapter (client_credentials only)',
    workloads,
    stop: () => stopChild(handle),
  };
}

/** better-auth on PostgreSQL: its session read with the session cookie, and email-and-password sign-in. */
export async function prepareBetterAuth(context) {
  const { settings, databaseUrl, runId } = context;
  const schema = `bench_ba_${runId}`;
  context.schemas.push(schema);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const handle = startChild('better-auth', process.execPath, [join(PEERS_DIR, 'better-auth-server.mjs')], {
    cwd: PEERS_DIR,
    env: {
      ...baseEnv(),
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SCHEMA: schema,
      BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    },
  });
  log(`starting better-auth on ${base} (PostgreSQL schema ${schema})`);
  await waitForHttp(`${base}/health`, handle);
  const pid = handle.child.pid;
  const credentials = { email: `bench-${runId}@example.com`, password: `Bench-${randomBytes(12).toString('hex')}!` };
  // In production better-auth refuses a POST without Origin (its CSRF check); a browser always sends it.
  const origin = { origin: base };
  const signUp = await postJson(`${base}/api/auth/sign-up/email`, { ...credentials, name: 'Bench' }, origin);
  if (signUp.status !== 200) throw new Error(`better-auth sign-up answered ${signUp.status}: ${signUp.text}`);
  const cookies = [];
  for (let i = 0; i < settings.connections; i++) {
    const response = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...origin },
      body: JSON.stringify(credentials),
    });
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .find((pair) => pair.startsWith('better-auth.session_token='));
    if (response.status !== 200 || !cookie) throw new Error(`better-auth sign-in answered ${response.status}`);
    cookies.push({ cookie });
  }
  // get-session answers 200 with `null` for a bad cookie: check that the cookie reads a session before the load.
  const probe = await fetch(`${base}/api/auth/get-session`, { headers: cookies[0] }).then((r) => r.json());
  if (!probe?.session) throw new Error(`better-auth get-session read no session: ${JSON.stringify(probe)}`);
  const signIn = {
    url: `${base}/api/auth/sign-in/email`,
    method: 'POST',
    connections: settings.loginConnections,
    headers: { 'content-type': 'application/json', ...origin },
    body: JSON.stringify(credentials),
  };
  return {
    name: 'better_auth',
    pid,
    setup:
      'better-auth, PostgreSQL adapter (Kysely on a pg Pool of 20), email and password; passwords hashed with ' +
      'argon2id m=19456 KiB, t=2, p=1 (@node-rs/argon2) through emailAndPassword.password.hash/verify; no cookie cache',
    workloads: {
      authenticated_read: (duration) =>
        perConnectionGet(`${base}/api/auth/get-session`, cookies, settings.connections, duration),
      password_sign_in: async (duration) => summarize(await cannon({ ...signIn, duration })),
    },
    stop: () => stopChild(handle),
  };
}

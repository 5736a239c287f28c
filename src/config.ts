import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** A configuration value that stops the start. The message names the variable, in one line. */
export class ConfigError extends Error {}

export type SvcEnv = 'production' | 'development' | 'test';

export interface Config {
  env: SvcEnv;
  host: string;
  port: number;
  baseUrl: string;
  oidcIssuer: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema the service lives in; tests give each file its own. */
  databaseSchema: string;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: string;
  /**
   * Behind load balancers: how many proxy hops (a number) or which proxy addresses (addresses and CIDRs) are
   * trusted to append to X-Forwarded-For; the client is the right-most address they did not write. `false`: the
   * socket's peer is the client (rate limits are per client IP).
   */
  trustProxy: false | number | string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  dnsServers: string[];
  /** 32-byte key that encrypts signing keys and other secrets at rest (AES-256-GCM). */
  secretKey: Buffer | undefined;
  /** 32-byte key for TOTP secrets; MFA answers 503 while it is missing. */
  mfaEncryptionKey: Buffer | undefined;
  accessTokenTtlSeconds: number;
  securityContact: string;
  publicSiteUrl: string | undefined;
  flags: {
    publicSignupEnabled: boolean;
    passwordResetEnabled: boolean;
    onboardBootstrapEnabled: boolean;
    agentApprovalsEnabled: boolean;
    paymentsStepupEnabled: boolean;
    autonomyExecutionEnabled: boolean;
    mcpGatewayEnabled: boolean;
  };
  /**
   * Social login providers (Part A 4.5): each is configured only when its client id and secret are set. The
   * endpoint overrides (issuer, web and API URLs) exist for tests and GitHub Enterprise; https only.
   */
  social: {
    google: { clientId: string; clientSecret: string; issuer: string } | undefined;
    github: { clientId: string; clientSecret: string; webUrl: string; apiUrl: string } | undefined;
  };
  /** The app's page a social or SSO round trip returns to, with its one-time completion code or error flag. */
  signInReturnUrl: string;
  /** Observability (docs/operating.md): who may read `/metrics`, and where. */
  metrics: {
    /** `Authorization: Bearer <token>` opens `/metrics` on the service's port. */
    token: string | undefined;
    /** A second listener that serves only `/metrics` (open unless a token is set too). */
    port: number | undefined;
    host: string;
  };
  /**
   * First-admin bootstrap at start (SVC_BOOTSTRAP_EMAIL, SVC_BOOTSTRAP_PASSWORD_FILE, SVC_BOOTSTRAP_ORGANIZATION):
   * all three or none; ignored once a platform-operator organization exists.
   */
  bootstrap: { email: string; passwordFile: string; organization: string } | undefined;
  /** LICENCE_SIGNING_KEY_FILE: licences answer 503 while it is unset (Part B 4.10). */
  licenceSigningKey: LicenceSigningKey | undefined;
  /** RELEASE_STORE (default `DATA_DIR/releases` when DATA_DIR is set): release downloads answer 503 while unset. */
  releaseStore: ReleaseStoreConfig | undefined;
  egressTest: {
    /** host name -> loopback `host:port`, honoured only when SVC_ENV=test. */
    routes: Map<string, { host: string; port: number }>;
    caFile: string | undefined;
    ca: string | undefined;
  };
}

export type FlagName = keyof Config['flags'];

/** The licence signing key (Part B operator plane): a PKCS#8 PEM and the JWS algorithm it signs with. */
export interface LicenceSigningKey {
  file: string;
  pem: string;
  alg: 'EdDSA' | 'ES256';
}

/** Where release objects live (ARCHITECTURE.md "Licence signing"): a directory the service serves, or S3. */
export type ReleaseStoreConfig =
  | { kind: 'file'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Prepended to every object key; empty or ending in `/`. */
      prefix: string;
      endpoint: string | undefined;
      region: string;
      /** Both or neither: without them the AWS SDK's default credential chain applies. */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

type Env = Record<string, string | undefined>;

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${raw}"`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name}: expected a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name}: expected a ${protocols.join(' or ')} URL`);
  }
  return raw;
}

/** A 32-byte key given as 64 hex characters or as base64 / base64url of 32 bytes. */
function key32(env: Env, name: string): Buffer | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32 || (!/^[0-9a-f]{64}$/i.test(raw) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(raw))) {
    throw new ConfigError(`${name}: expected a 32-byte key as 64 hex characters or base64`);
  }
  return key;
}

const TRUST_PROXY_FORMS =
  'give the number of proxies in front of the service (TRUST_PROXY=1) or their addresses and CIDRs ' +
  '(TRUST_PROXY=10.0.0.0/8,192.0.2.7)';

/** An IPv4 or IPv6 address, optionally with a prefix length in range for its family. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: which X-Forwarded-For hops are believed. Each proxy appends the address it received the request
 * from, so only the right-most entries were written by proxies we run; everything to their left was written by
 * the client. A hop count or a list of proxy addresses lets Fastify (proxy-addr) take the right-most address
 * that no trusted proxy wrote. `true` (trust every hop) would make the client's own left-most entry its address,
 * so any client could pick a fresh per-IP budget with each request: it is refused, never guessed at.
 */
function trustedProxies(env: Env): false | number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY: "${raw}" would let clients choose their address in X-Forwarded-For; ${TRUST_PROXY_FORMS}`,
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY: expected from 0 to 10 proxy hops, got "${raw}"`);
    return hops;
  }
  const proxies = raw.split(',').map((entry) => entry.trim());
  const wrong = proxies.find((entry) => !isAddressOrCidr(entry));
  if (wrong !== undefined) {
    throw new ConfigError(`TRUST_PROXY: "${wrong}" is not an IP address or CIDR; ${TRUST_PROXY_FORMS}`);
  }
  return proxies;
}

/** A social provider's client: both variables, or neither (the provider is then not offered). */
function socialClient(env: Env, prefix: string): { clientId: string; clientSecret: string } | undefined {
  const clientId = env[`${prefix}_CLIENT_ID`] || undefined;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`] || undefined;
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new ConfigError(`${prefix}_CLIENT_ID, ${prefix}_CLIENT_SECRET: set both to offer the provider, or neither`);
  }
  return { clientId, clientSecret };
}

function hostPort(value: string, name: string): { host: string; port: number } {
  const match = /^(\[[0-9a-f:.]+\]|[^:\s]+):(\d{1,5})$/i.exec(value.trim());
  if (!match || Number(match[2]) > 65535) throw new ConfigError(`${name}: "${value}" is not host:port`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

/** METRICS_TOKEN, METRICS_PORT, METRICS_HOST: neither token nor port leaves `/metrics` unexposed (404). */
function metricsConfig(env: Env, host: string): Config['metrics'] {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && !/^[A-Za-z0-9._~+/=-]{16,512}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN: expected at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -');
  }
  const port = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535) : undefined;
  return { token, port, host: env.METRICS_HOST || host };
}

export function loadConfig(env: Env = process.env): Config {
  const svcEnv = (env.SVC_ENV || 'development') as SvcEnv;
  if (!['production', 'development', 'test'].includes(svcEnv)) {
    throw new ConfigError(`SVC_ENV: expected production, development or test, got "${env.SVC_ENV}"`);
  }
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, '');
  const oidcIssuer = (url(env, 'OIDC_ISSUER', ['http:', 'https:']) ?? baseUrl).replace(/\/$/, '');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseSchema = env.DATABASE_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError('DATABASE_SCHEMA: expected a lowercase SQL identifier');
  }
  const dnsServers = (env.DNS_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of dnsServers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])(:\d{1,5})?$/i.test(server)) {
      throw new ConfigError(`DNS_SERVERS: "${server}" is not an IP address with an optional :port`);
    }
  }

  const routes = new Map<string, { host: string; port: number }>();
  const rawRoutes = env.EGRESS_TEST_ROUTES ?? '';
  const caFile = env.EGRESS_TEST_CA_FILE || undefined;
  if ((rawRoutes || caFile) && svcEnv !== 'test') {
    throw new ConfigError(
      `${rawRoutes ? 'EGRESS_TEST_ROUTES' : 'EGRESS_TEST_CA_FILE'}: honoured only when SVC_ENV=test; remove it`,
    );
  }
  for (const entry of rawRoutes
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, target] = entry.split('=');
    if (!name || !target) throw new ConfigError(`EGRESS_TEST_ROUTES: "${entry}" is not name=host:port`);
    const vetted = hostPort(target, 'EGRESS_TEST_ROUTES');
    if (!['127.0.0.1', 'localhost', '::1'].includes(vetted.host)) {
      throw new ConfigError(`EGRESS_TEST_ROUTES: "${entry}" must point at a loopback listener`);
    }
    routes.set(name.toLowerCase(), vetted);
  }
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch {
      throw new ConfigError(`EGRESS_TEST_CA_FILE: cannot read ${caFile}`);
    }
  }

  const google = socialClient(env, 'SOCIAL_GOOGLE');
  const github = socialClient(env, 'SOCIAL_GITHUB');
  const social: Config['social'] = {
    google: google && {
      ...google,
      issuer: (url(env, 'SOCIAL_GOOGLE_ISSUER', ['https:']) ?? 'https://accounts.google.com').replace(/\/$/, ''),
    },
    github: github && {
      ...github,
      webUrl: (url(env, 'SOCIAL_GITHUB_URL', ['https:']) ?? 'https://github.com').replace(/\/$/, ''),
      apiUrl: (url(env, 'SOCIAL_GITHUB_API_URL', ['https:']) ?? 'https://api.github.com').replace(/\/$/, ''),
    },
  };

  const secretKey = key32(env, 'SECRET_KEY');
  if (!secretKey && svcEnv === 'production') {
    throw new ConfigError('SECRET_KEY: required in production (32 bytes as 64 hex characters or base64)');
  }

  const bootstrap = firstAdmin(env);

  return {
    env: svcEnv,
    host,
    port,
    baseUrl,
    oidcIssuer,
    databaseUrl,
    databaseSchema,
    dataDir: env.DATA_DIR || './.data',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    logLevel: env.LOG_LEVEL || (svcEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustedProxies(env),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || `no-reply@${new URL(baseUrl).hostname}`,
    dnsServers,
    secretKey,
    mfaEncryptionKey: key32(env, 'MFA_ENCRYPTION_KEY'),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 60, 86_400),
    securityContact: env.SECURITY_CONTACT || `mailto:security@${new URL(baseUrl).hostname}`,
    publicSiteUrl: url(env, 'PUBLIC_SITE_URL', ['https:', 'http:']),
    flags: {
      publicSignupEnabled: bool(env, 'PUBLIC_SIGNUP_ENABLED', false),
      passwordResetEnabled: bool(env, 'PASSWORD_RESET_ENABLED', true),
      onboardBootstrapEnabled: bool(env, 'ONBOARD_BOOTSTRAP_ENABLED', false),
      agentApprovalsEnabled: bool(env, 'AGENT_APPROVALS_ENABLED', false),
      paymentsStepupEnabled: bool(env, 'PAYMENTS_STEPUP_ENABLED', false),
      autonomyExecutionEnabled: bool(env, 'AUTONOMY_EXECUTION_ENABLED', false),
      mcpGatewayEnabled: bool(env, 'MCP_GATEWAY_ENABLED', false),
    },
    social,
    signInReturnUrl: url(env, 'SIGN_IN_RETURN_URL', ['https:', 'http:']) ?? `${baseUrl}/`,
    metrics: metricsConfig(env, host),
    bootstrap,
    egressTest: { routes, caFile, ca },
    licenceSigningKey: licenceSigningKey(env),
    releaseStore: releaseStore(env),
  };
}

/** LICENCE_SIGNING_KEY_FILE: a private key in PEM, Ed25519 (EdDSA) or P-256 (ES256); anything else stops the start. */
function licenceSigningKey(env: Env): LicenceSigningKey | undefined {
  const file = env.LICENCE_SIGNING_KEY_FILE?.trim();
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`LICENCE_SIGNING_KEY_FILE: cannot read ${file}`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(text);
  } catch {
    throw new ConfigError('LICENCE_SIGNING_KEY_FILE: not a PEM private key');
  }
  const pem = key.export({ format: 'pem', type: 'pkcs8' }).toString();
  if (key.asymmetricKeyType === 'ed25519') return { file, pem, alg: 'EdDSA' };
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return { file, pem, alg: 'ES256' };
  }
  throw new ConfigError('LICENCE_SIGNING_KEY_FILE: expected an Ed25519 or P-256 (ES256) private key');
}

/**
 * RELEASE_STORE: `file://<dir>` or `s3://bucket/prefix` (with S3_ENDPOINT, S3_REGION, AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY). Unset: `DATA_DIR/releases` when DATA_DIR is set, else no store (downloads 503).
 */
function releaseStore(env: Env): ReleaseStoreConfig | undefined {
  const raw = env.RELEASE_STORE?.trim();
  if (!raw) return env.DATA_DIR ? { kind: 'file', dir: join(env.DATA_DIR, 'releases') } : undefined;
  if (raw.startsWith('file://')) {
    const dir = raw.slice('file://'.length);
    if (!dir) throw new ConfigError('RELEASE_STORE: file:// needs a directory, e.g. file:///var/lib/svc/releases');
    return { kind: 'file', dir };
  }
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!s3) throw new ConfigError('RELEASE_STORE: expected file://<dir> or s3://<bucket>/<prefix>');
  const prefix = (s3[2] ?? '').replace(/^\/+/, '');
  const accessKeyId = env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError('AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both, or neither (the SDK default chain)');
  }
  return {
    kind: 's3',
    bucket: s3[1]!,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

function firstAdmin(env: Env): Config['bootstrap'] {
  const names = ['SVC_BOOTSTRAP_EMAIL', 'SVC_BOOTSTRAP_PASSWORD_FILE', 'SVC_BOOTSTRAP_ORGANIZATION'];
  const [email, passwordFile, organization] = names.map((name) => env[name]?.trim() || undefined);
  if (!email && !passwordFile && !organization) return undefined;
  if (!email || !passwordFile || !organization) throw new ConfigError(`${names.join(', ')}: set all three, or none`);
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new ConfigError('SVC_BOOTSTRAP_EMAIL: not an email address');
  return { email, passwordFile, organization };
}

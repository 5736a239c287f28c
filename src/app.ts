import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import type { Config } from './config.js';
import { type AfterAnswer, createAfterAnswer } from './kernel/after-answer.js';
import {
  type AccessTokens,
  type AuthStateListener,
  createAccessTokens,
  createAuthStateListener,
  createDpopVerifier,
  type DpopVerifier,
  type Governance,
  registerGuard,
} from './kernel/auth/index.js';
import { type Clock, systemClock } from './kernel/clock.js';
import { createKeyring, type Keyring, randomSecret } from './kernel/crypto/index.js';
import { createTransactions, type Database, migrate, openDatabase, type Transactions } from './kernel/db/index.js';
import { createEvents, createLiveStream, type Events, initAuditChain } from './kernel/events/index.js';
import {
  BODY_LIMIT_BYTES,
  registerHttpKernel,
  registerSecurityHeaders,
  schemaController,
  trustProxyOf,
} from './kernel/http/index.js';
import { newId } from './kernel/ids.js';
import { createLimiter, type Limiter } from './kernel/limits/index.js';
import { createMailer, type Mailer } from './kernel/mail/index.js';
import { createDns, createEgress, type Dns, type Egress } from './kernel/net/index.js';
import {
  createMetrics,
  createReadiness,
  type Metrics,
  type Readiness,
  registerObservability,
} from './kernel/observability/index.js';
import { createPersonalDataRegistry, type PersonalDataRegistry } from './kernel/personal-data.js';
import { createRevocationCascade, type RevocationCascade } from './kernel/revocation.js';
import {
  type AccountService,
  createAccountService,
  createSecurityNotices,
  createSourceContainmentGate,
  registerAccountRoutes,
} from './modules/accounts/index.js';
import {
  type AgentAdmin,
  type AgentStateCache,
  agentsPersonalData,
  type CredentialExchange,
  createAgentAdmin,
  createAgentGovernance,
  createAgentStateCache,
  createAgentTokenResolver,
  createCredentialExchange,
  createFederation,
  createPlainMintRecords,
  delegationsEndWithAgent,
  type Federation,
  registerAgentAdminRoutes,
  registerAgentTokenRoutes,
  registerFederationRoutes,
} from './modules/agents/index.js';
import { type ApiKeys, createApiKeys, registerApiKeyRoutes } from './modules/api-keys/index.js';
import {
  approvalsPersonalData,
  registerApprovalRoutes,
  registerContentApprovalRoutes,
} from './modules/approvals/index.js';
import { type Autonomy, createAutonomy, registerAutonomyRoutes } from './modules/autonomy/index.js';
import { registerCommandRoutes } from './modules/command/index.js';
import {
  createEarlyAccessService,
  type EarlyAccessService,
  registerEarlyAccessRoutes,
} from './modules/early-access/index.js';
import { createMagicLinkService, type MagicLinkService, registerMagicLinkRoutes } from './modules/magic-link/index.js';
import {
  createManifests,
  declaredResourcePermissions,
  type Manifests,
  registerManifestRoutes,
} from './modules/manifests/index.js';
import { registerMcpRoutes } from './modules/mcp/index.js';
import {
  createMembersService,
  type MembersService,
  membershipPersonalData,
  registerMemberRoutes,
} from './modules/members/index.js';
import { registerMetadataRoutes } from './modules/metadata/index.js';
import { createMfaService, createSecondFactorGate, type MfaService, registerMfaRoutes } from './modules/mfa/index.js';
import {
  createOAuthClients,
  createOpenIdProvider,
  type OAuthClients,
  type OpenIdProvider,
  queueBackchannelLogouts,
  queueBackchannelLogoutsOfAccount,
  queueBackchannelLogoutsOfMembership,
  registerOAuthClientRoutes,
  registerOAuthProviderRoutes,
} from './modules/oidc/index.js';
import {
  createOnboarding,
  type Onboarding,
  onboardingPersonalData,
  registerOnboardingRoutes,
} from './modules/onboarding/index.js';
import { registerOperatorPlane } from './modules/operator/index.js';
import { createOrganizationService, type OrganizationService } from './modules/organizations/index.js';
import { createPasskeyService, type PasskeyService, registerPasskeyRoutes } from './modules/passkeys/index.js';
import { paymentsPersonalData, registerPaymentRoutes } from './modules/payments/index.js';
import { createPricingService, type PricingService, registerPricingRoutes } from './modules/pricing/index.js';
import { createPrivacyService, type PrivacyService, registerPrivacyRoutes } from './modules/privacy/index.js';
import {
  createRolesService,
  customRolesOfRequest,
  type RolesService,
  registerRoleRoutes,
} from './modules/roles/index.js';
import { createSaml, registerSamlRoutes, type Saml, samlBrowserBinding } from './modules/saml/index.js';
import { createScim, registerScimRoutes, type Scim } from './modules/scim/index.js';
import { createSettingsService, registerSettingsRoutes, type SettingsService } from './modules/settings/index.js';
import {
  createSessionService,
  createSessionStateCache,
  createSignIn,
  createUserTokenResolver,
  endGrantSessionsMadeFromThem,
  type SessionService,
  type SessionStateCache,
  type SignIn,
} from './modules/sign-in/index.js';
import { createSocial, registerSocialRoutes, type Social } from './modules/social/index.js';
import {
  createSso,
  provisionPerson,
  registerSsoRoutes,
  registerSsoSignInRoutes,
  type Sso,
} from './modules/sso/index.js';
import { createWebhooks, registerWebhookRoutes, type Webhooks } from './modules/webhooks/index.js';
import { registerConsoleAssets } from './web/console-assets.js';
import { registerWebPages } from './web/index.js';

/** Everything the routes and workers need, wired by hand: factories take what they use. */
export interface Deps {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: Database;
  transactions: Transactions;
  keyring: Keyring;
  accessTokens: AccessTokens;
  events: Events;
  limiter: Limiter;
  mailer: Mailer;
  dns: Dns;
  egress: Egress;
  /** Prometheus metrics of this app instance (its own registry) and the readiness checks of `/readyz`. */
  metrics: Metrics;
  readiness: Readiness;

  /** Work requests leave running after their answer; `close()` waits for it before anything else closes. */
  afterAnswer: AfterAnswer;
  /** Each module that stores personal data registers its export and erasure here (privacy rights). */
  personalData: PersonalDataRegistry;
  organizations: OrganizationService;
  settings: SettingsService;
  members: MembersService;
  /** Custom roles (Part A 5.9): the admin API; holders read them with their membership on every request. */
  roles: RolesService;
  /** IAM manifests (Part B 2.4, 4.6): plan, request-approval, apply; `testHooks` work only when SVC_ENV=test. */
  manifests: Manifests;
  pricing: PricingService;
  sessions: SessionService;
  /**
   * What ending a session, an account's sessions or a membership also ends (src/kernel/revocation.ts): the
   * consequences are registered below, in one place.
   */
  revocation: RevocationCascade;
  /** Sign-in's finishing step: every first factor ends in `signIn.finishSignIn` (the MFA gate plugged in). */
  signIn: SignIn;
  /** Tells this node's auth-state caches of changes (`synced()` waits until a change has reached them). */
  authState: AuthStateListener;
  sessionStateCache: SessionStateCache;
  accounts: AccountService;
  /** TOTP second factor (Part A 4.2): a gate of `signIn`, and the challenge that finishes it. */
  mfa: MfaService;
  passkeys: PasskeyService;
  magicLinks: MagicLinkService;
  /** RFC 9449 proof verifier with its replay cache (Redis when configured). */
  dpop: DpopVerifier;
  earlyAccess: EarlyAccessService;
  apiKeys: ApiKeys;
  webhooks: Webhooks;
  /** OAuth clients and protected resources of each organization (the OpenID Provider's registry). */
  oauthClients: OAuthClients;
  /** The OpenID Provider: authorize, token, UserInfo, end session, back-channel logout (Part A 4.14). */
  openIdProvider: OpenIdProvider;
  privacy: PrivacyService;
  /** SCIM 2.0 provisioning: each organization's token, Users and Groups (Part A 4.6). */
  scim: Scim;
  /** Enterprise SSO: each organization's OIDC identity provider, SSO sign-in and enforcement (Part A 4.6). */
  sso: Sso;
  /** Enterprise SSO over SAML 2.0: each organization's SAML identity provider, sign-in and single logout. */
  saml: Saml;
  /** Social login with Google and GitHub, and linked identities (Part A 4.5). */
  social: Social;
  /** AI agents as principals (Part B 2.1, 2.2, 4): `admin` registers and governs them and records delegations. */
  agents: {
    admin: AgentAdmin;
    governance: Governance;
    /** Each agent's state and authority, and whose credential a hash is, cached per node (auth-state channel). */
    states: AgentStateCache;
    /** `POST /agents/token`: the credential exchange and its throttles (Part B 4.1, 8). */
    exchange: CredentialExchange;
    /** Federated issuers, bindings and `POST /agents/token/federated` (Part B 2.2, 4.1). */
    federation: Federation;
  };
  /** Agent onboarding (Part B 4.5): invite codes, the bootstrap handshake and the hosted verification. */
  onboarding: Onboarding;
  /** Autonomous response (Part B 4.9): the engine fed by detections, the ledger, its worker and kill switch. */
  autonomy: Autonomy;
  /**
   * Stops this instance's own work and lets go of its connections: first the work left running after answers
   * (it may still write, mail or count), then the usage meter's last write, Redis, mail, a key re-read still
   * running, and last the LISTEN connections and the pool. Resolves once nothing of it holds a connection or
   * runs a query; calling it again returns the same stop. Close the HTTP app (and the workers) first: their
   * handlers and jobs use these.
   */
  close(): Promise<void>;
}

export interface DepsOptions {
  clock?: Clock;
  /** A PGlite already started (tests share one per worker). */
  pglite?: PGlite;
  logger?: Logger;
  /** Prefix of rate-limit keys, so test files sharing one Redis never share counters. */
  limiterPrefix?: string;
}

/**
 * SECRET_KEY encrypts signing keys at rest. Production must provide it; elsewhere a key is made once in
 * DATA_DIR so that `npm start` works with nothing configured.
 */
function resolveSecretKey(config: Config): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomSecret(32), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
}

/** The service's logger, writing JSON lines to `destination` (standard output unless given). */
export function createLogger(config: Config, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers.dpop',
          'res.headers["set-cookie"]',
          '*.password',
          '*.new_password',
          '*.current_password',
          '*.refresh_token',
          '*.token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        // Query strings carry secrets (an id_token_hint, a sign-in link's token, an authorization code): the request
        // line is logged with its path only.
        req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
          method: req.method,
          url: req.url.includes('?') ? `${req.url.slice(0, req.url.indexOf('?'))}?[redacted]` : req.url,
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
    destination,
  );
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    dataDir: config.dataDir,
    pglite: options.pglite,
  });
  const closers: Array<() => Promise<void>> = [() => database.close()];
  const metrics = createMetrics();
  let closing: Promise<void> | undefined;
  try {
    await migrate(database);
    const transactions = createTransactions(database.db, database.tenantSessions);
    await initAuditChain(transactions);
    const keyring = createKeyring({ transactions, secretKey: resolveSecretKey(config), clock });
    await keyring.init();
    const readiness = createReadiness({
      ...{ database, redisUrl: config.redisUrl, logger },
      signingKeysLoaded: () => keyring.jwks().keys.length > 0,
    });
    closers.push(() => readiness.close());
    closers.push(() => keyring.close());
    const accessTokens = createAccessTokens({ keyring, clock, ttlSeconds: config.accessTokenTtlSeconds });
    const live = createLiveStream({
      ...{ redisUrl: config.redisUrl, database },
      channel: `svc:${config.databaseSchema}:events`,
    });
    closers.push(() => live.close());
    const events = createEvents({ transactions, clock, live });
    const limiter = createLimiter({ redisUrl: config.redisUrl, keyPrefix: options.limiterPrefix ?? 'svc', logger });
    closers.push(() => limiter.close());
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      logger,
      logText: config.env !== 'production',
    });
    closers.push(async () => mailer.close());
    const dns = createDns(config);
    const egress = createEgress({ config, dns });
    const personalData = createPersonalDataRegistry();
    const revocation = createRevocationCascade();
    const afterAnswer = createAfterAnswer();
    const organizations = createOrganizationService({ clock, revocation });
    const settings = createSettingsService({ transactions, events, clock });
    const sessions = createSessionService({ transactions, accessTokens, events, clock, revocation, metrics });
    // Every first factor ends here; the second factor is a gate first factors never see (Part A 4.2). A source
    // contained by autonomy (Part B 4.9 contain_source) is refused first, before any session or MFA challenge.
    const signIn = createSignIn({
      sessions,
      events,
      metrics,
      gates: [createSourceContainmentGate({ limiter }), createSecondFactorGate({ clock })],
    });
    const authState = await createAuthStateListener(database, transactions);
    closers.push(async () => authState.close());
    const sessionStateCache = createSessionStateCache(authState);
    const apiKeys = await createApiKeys({ svcEnv: config.env, authState, transactions, events, clock, personalData });
    closers.push(() => apiKeys.close());
    const webhooks = createWebhooks({
      ...{ transactions, clock, egress, limiter, metrics },
      secretKey: resolveSecretKey(config),
    });
    const oauthClients = createOAuthClients({ transactions, events, clock });
    const notify = createSecurityNotices({ config, mailer, clock, logger, afterAnswer });
    const mfa = createMfaService({ config, transactions, signIn, events, clock, limiter, notify, personalData });
    const accounts = createAccountService({
      config,
      transactions,
      organizations,
      sessions,
      signIn,
      revocation,
      events,
      limiter,
      clock,
      personalData,
      mailer,
      settings,
      logger,
      metrics,

      afterAnswer,
    });
    const dpop = createDpopVerifier({
      clock,
      baseUrl: config.baseUrl,
      redisUrl: config.redisUrl,
      keyPrefix: options.limiterPrefix ?? 'svc',
    });
    closers.push(() => dpop.close());
    const passkeys = createPasskeyService({
      ...{ config, transactions, events, clock, limiter, personalData, accounts, notify, logger, afterAnswer },
      signIn,
      mfaEnabled: mfa.isEnabled,
    });
    const magicLinks = createMagicLinkService({
      ...{ config, transactions, events, clock, limiter, mailer, settings, personalData, logger, afterAnswer },
      signIn,
    });
    const openIdProvider = createOpenIdProvider({
      ...{ config, transactions, events, clock, limiter, keyring, accessTokens, dpop, egress, sessions, logger },
      ...{ authState, personalData, metrics, afterAnswer },
      secretKey: resolveSecretKey(config),
    });
    // The revocation cascade (src/kernel/revocation.ts): every consequence of ending sessions, in the order run.
    revocation.on('sessionsEnded', endGrantSessionsMadeFromThem);
    revocation.on('sessionsEnded', queueBackchannelLogouts);
    revocation.on('accountSessionsEnded', queueBackchannelLogoutsOfAccount);
    revocation.on('membershipEnded', queueBackchannelLogoutsOfMembership);
    revocation.on('agentRetired', delegationsEndWithAgent(events));
    const earlyAccess = createEarlyAccessService({
      ...{ config, transactions, events, limiter, mailer, dns, clock, logger, afterAnswer },
    });
    const members = createMembersService({
      baseUrl: config.baseUrl,
      ...{ transactions, organizations, accounts, sessions, settings, events, limiter, mailer, dns, clock },
    });
    personalData.add(membershipPersonalData(organizations));
    const roles = createRolesService({
      ...{ transactions, events, clock },
      invitationsHolding: members.invitations.holdingRole,
      declaredPermissions: declaredResourcePermissions,
    });
    const manifests = createManifests({ config, transactions, events, clock, members, testHooks: {} });
    personalData.add(approvalsPersonalData);
    personalData.add(paymentsPersonalData(clock));
    personalData.add(onboardingPersonalData);
    const pricing = createPricingService({ transactions, organizations, clock });
    const privacy = createPrivacyService({ transactions, events, clock, personalData, sessions });
    const scim = createScim({
      ...{ config, transactions, organizations, sessions, accounts, members, events, clock, personalData },
    });
    const sso = createSso({
      ...{ config, transactions, organizations, events, clock, egress, limiter, sessions, accounts, members },
      ...{ personalData, logger, mailer },
      signIn,
      secretKey: resolveSecretKey(config),
    });
    const saml = createSaml({
      ...{ config, transactions, organizations, sessions, events, clock, limiter, logger },
      provision: (tx, person, allowedDomains) =>
        provisionPerson(
          { config, mailer, logger, organizations, accounts, members, events, clock },
          tx,
          person,
          allowedDomains,
        ),
      connectionChanges: sso.connectionChanges,
      signInCodes: sso.signInCodes,
    });
    // `POST /auth/sso/start` is protocol-agnostic: SAML when the organization has no enabled OIDC connection.
    sso.attachSaml({ start: saml.startSamlSignIn, binding: samlBrowserBinding });
    // Closed first (closers run last-in first-out): work after an answer may still write, mail or count.
    closers.push(() => afterAnswer.drain());
    const agentStates = createAgentStateCache({ authState, transactions, clock });
    personalData.add(agentsPersonalData({ clock }));
    const plainMintRecords = createPlainMintRecords({ limiter, clock });
    const agents = {
      states: agentStates,
      exchange: createCredentialExchange({
        ...{ accessTokens, transactions, events, clock, limiter, logger, plainMintRecords },
        states: agentStates,
      }),
      admin: createAgentAdmin({ transactions, events, clock, limiter, revocation }),
      // The guard's checks for every agent principal (Part B 4.2): kill switch to rate limit.
      governance: createAgentGovernance({ config, transactions, events, clock, limiter }),
      federation: createFederation({
        ...{ config, accessTokens, transactions, events, clock, limiter, egress, dpop, afterAnswer, logger },
        ...{ plainMintRecords, states: agentStates },
      }),
    };
    const onboarding = createOnboarding({
      ...{ config, transactions, events, clock, limiter, mailer, dns, accounts, organizations, passkeys, sessions },
      agentAdmin: agents.admin,
    });
    const social = createSocial({
      ...{ config, transactions, events, clock, egress, limiter, settings, sessions, organizations, accounts },
      ...{ passkeys, notify, personalData, logger },
      signIn,
      mfaEnabled: mfa.isEnabled,
      relyingParty: sso.relyingParty,
    });
    const autonomy = createAutonomy({
      ...{ config, transactions, events, clock, limiter, settings, sessions, organizations, logger },
    });
    const pool = (database.db as unknown as { $client?: unknown }).$client;
    if (database.kind === 'pg' && pool) metrics.watchPool('main', pool as Parameters<Metrics['watchPool']>[1]);
    if (database.tenantSessions) metrics.watchPool('tenant_sessions', database.tenantSessions);
    metrics.watchQueue('webhook_delivery', () => webhooks.queueStats());
    metrics.watchQueue('webhook_outbox', () => webhooks.outboxStats());
    return {
      config,
      logger,
      clock,
      database,
      metrics,
      readiness,
      transactions,
      keyring,
      accessTokens,
      events,
      limiter,
      mailer,
      dns,
      egress,
      afterAnswer,
      personalData,
      organizations,
      settings,
      members,
      roles,
      manifests,
      pricing,
      sessions,
      revocation,
      signIn,
      authState,
      sessionStateCache,
      accounts,
      mfa,
      passkeys,
      magicLinks,
      dpop,
      earlyAccess,
      apiKeys,
      webhooks,
      oauthClients,
      openIdProvider,
      privacy,
      scim,
      sso,
      saml,
      social,
      agents,
      onboarding,
      autonomy,
      close() {
        closing ??= (async () => {
          for (const close of [...closers].reverse()) await close();
        })();
        return closing;
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close();
    throw error;
  }
}

/**
 * Whether an organization is the platform operator's, for `platformOnly` routes. The platform-operator
 * organization is created once and never changes, so its id is remembered once found.
 */
function platformOperatorCheck(deps: Deps): (tenantId: string) => Promise<boolean> {
  let platformId: string | undefined;
  return async (tenantId) => {
    // One statement, outside a transaction: an installation without one asks on each platform-only call.
    platformId ??= (await deps.transactions.systemRead((q) => deps.organizations.platformOperator(q)))?.id;
    return platformId === tenantId;
  };
}

/** The HTTP application: kernel plugins first, then every module's routes. Listening is the caller's. */
export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOf(config.trustProxy),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{8,128}$/.test(given) ? given : newId();
    },
    schemaController,
  });
  // First, so every answer carries them, the not-found handler's (unknown paths, dormant surfaces) too.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    hsts: config.baseUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  registerHttpKernel(app);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc identity and access service',
        version: '1.0.0',
        description: 'Accounts, organizations, OpenID Provider and AI-agent principals. See docs/ for guides.',
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  const isPlatformOperator = platformOperatorCheck(deps);
  const resolvers = [
    createUserTokenResolver({
      accessTokens: deps.accessTokens,
      transactions: deps.transactions,
      cache: deps.sessionStateCache,
      clock: deps.clock,
      dpop: deps.dpop,
    }),
    deps.apiKeys.resolver,
    deps.scim.resolver,
    createAgentTokenResolver({ accessTokens: deps.accessTokens, states: deps.agents.states, dpop: deps.dpop }),
  ];
  registerGuard(app, {
    config,
    resolvers,
    // Agent principals are judged by governance (Part B 4.2); without it the guard refuses them.
    governance: deps.agents.governance,
    isPlatformOperator,
  });
  registerObservability(app, { config, metrics: deps.metrics, readiness: deps.readiness });
  registerMetadataRoutes(app, {
    ...{ config, keyring: deps.keyring, clock: deps.clock },
    // The catalogue lists the caller's organization's custom roles (Part A 5.9) when a credential comes with it.
    customRolesOf: customRolesOfRequest({ resolvers, transactions: deps.transactions }),
  });
  registerAccountRoutes(app, { accounts: deps.accounts, sessions: deps.sessions, dpop: deps.dpop });
  registerMfaRoutes(app, { mfa: deps.mfa, dpop: deps.dpop });
  registerPasskeyRoutes(app, { passkeys: deps.passkeys, dpop: deps.dpop });
  registerMagicLinkRoutes(app, { magicLinks: deps.magicLinks, dpop: deps.dpop });
  registerEarlyAccessRoutes(app, { earlyAccess: deps.earlyAccess });
  registerMemberRoutes(app, { members: deps.members });
  registerRoleRoutes(app, { roles: deps.roles });
  registerSettingsRoutes(app, { settings: deps.settings });
  registerPricingRoutes(app, { pricing: deps.pricing });
  registerApiKeyRoutes(app, { apiKeys: deps.apiKeys.service });
  registerWebhookRoutes(app, { webhooks: deps.webhooks.service });
  registerOAuthClientRoutes(app, { oauthClients: deps.oauthClients });
  registerOAuthProviderRoutes(app, { provider: deps.openIdProvider });
  registerPrivacyRoutes(app, { privacy: deps.privacy });
  registerScimRoutes(app, { scim: deps.scim, baseUrl: config.baseUrl });
  registerSsoRoutes(app, deps.sso);
  registerSsoSignInRoutes(app, { ...deps.sso, dpop: deps.dpop });
  registerSamlRoutes(app, deps.saml);
  registerSocialRoutes(app, { ...deps.social, dpop: deps.dpop });
  registerAgentAdminRoutes(app, { agents: deps.agents.admin });
  registerAgentTokenRoutes(app, { exchange: deps.agents.exchange, dpop: deps.dpop });
  registerFederationRoutes(app, { federation: deps.agents.federation, dpop: deps.dpop });
  const { transactions, events, clock } = deps;
  registerApprovalRoutes(app, { config, transactions, events, clock });
  registerContentApprovalRoutes(app, { config, transactions, events, clock });
  registerManifestRoutes(app, { manifests: deps.manifests.service });
  registerCommandRoutes(app, {
    ...{ config, transactions, events, clock },
    isPlatformOperator,
  });
  registerOperatorPlane(app, {
    ...{ config, transactions, events, clock },
    ...{ limiter: deps.limiter, settings: deps.settings, pricing: deps.pricing },
    secretKey: resolveSecretKey(config),
  });
  registerPaymentRoutes(app, {
    ...{ config, transactions, events, clock, keyring: deps.keyring },
    ...{ mfa: deps.mfa, passkeys: deps.passkeys, sessions: deps.sessions },
  });
  registerOnboardingRoutes(app, deps.onboarding);
  registerAutonomyRoutes(app, { autonomy: deps.autonomy });
  registerMcpRoutes(app, {
    ...{ config, transactions, events, clock, limiter: deps.limiter, egress: deps.egress },
    ...{ resolvers, governance: deps.agents.governance, isPlatformOperator },
    ...{ manifests: deps.manifests.service, pricing: deps.pricing },
  });
  registerWebPages(app, deps);
  registerConsoleAssets(app);
  await app.ready();
  return app;
}

import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, FlagName } from '../../config.js';
import { isReadOnlyPermission } from '../authz/catalog.js';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
import type { Governance } from './governance.js';
import { hasPermission, type Principal, type PrincipalKind } from './principal.js';

/** Who may call a route: nobody needs a credential (`public`), a person, an agent, or any principal. */
export type AuthPolicy = 'public' | 'user' | 'agent' | 'any';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthPolicy;
    permission?: string;
    /** A deployment switch; while it is off the route answers 404 exactly like an unregistered path. */
    flag?: FlagName;
    /** 403 while the organization awaits approval (Part B onboarding). */
    quarantineGated?: boolean;
    /**
     * Principal kinds admitted by `any` (all when absent). AI agents reach only routes that name a `permission`
     * (which governance then judges) or list 'agent' here.
     */
    kinds?: readonly PrincipalKind[];
    /** The 403 detail for a kind the route does not admit, when the route has its own reason to give. */
    kindRefusal?: string;
    /** Only principals of the platform-operator organization pass (in addition to `permission`); others 403. */
    platformOnly?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export interface PresentedCredential {
  scheme: 'bearer' | 'dpop';
  token: string;
}

/**
 * Turns a presented credential into a principal. Each module that issues a kind of credential (user access
 * tokens, agent tokens, API keys…) supplies one; a resolver answers null for credentials that are not its own.
 */
export type CredentialResolver = (
  request: FastifyRequest,
  credential: PresentedCredential,
) => Promise<Principal | null>;

const KINDS_OF: Record<Exclude<AuthPolicy, 'public'>, readonly PrincipalKind[] | undefined> = {
  user: ['user'],
  agent: ['agent'],
  any: undefined,
};

const KIND_NAMES: Record<PrincipalKind, string> = {
  user: 'people signed in with a session',
  agent: 'AI agents',
  api_key: 'API keys',
  oauth_client: 'OAuth clients',
  scim: 'SCIM provisioning',
  distribution: 'distribution credentials',
};

/**
 * Every kind but AI agents: `kinds` of an `any` route that people and services may call but an agent never may
 * (ARCHITECTURE.md "Where agents may act": API-key minting and the other person-only routes).
 */
export const NOT_AGENTS: readonly PrincipalKind[] = (Object.keys(KIND_NAMES) as PrincipalKind[]).filter(
  (kind) => kind !== 'agent',
);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Policy = Pick<FastifyContextConfig, 'auth' | 'permission' | 'kinds'>;

/**
 * Whether an AI agent can ever get past this policy to governance (ARCHITECTURE.md "Where agents may act"):
 * the route admits the kind, and either names a permission that can be delegated or names agents outright.
 */
export function admitsAgents(policy: Policy): boolean {
  if (!policy.auth || policy.auth === 'public') return false;
  const admitted = policy.kinds ?? KINDS_OF[policy.auth];
  if (admitted && !admitted.includes('agent')) return false;
  return policy.permission !== undefined || admitted?.includes('agent') === true;
}

/** One route as the guard knows it, for audits of who may call what. */
export interface RoutePolicy extends Policy {
  method: string;
  url: string;
}

const policiesOf = new WeakMap<FastifyInstance, RoutePolicy[]>();

/** Every route the guard has seen on this app, with its policy, in registration order. */
export const routePolicies = (app: FastifyInstance): readonly RoutePolicy[] => policiesOf.get(app) ?? [];

export function readCredential(request: FastifyRequest): PresentedCredential | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^(Bearer|DPoP) +([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'dpop' : 'bearer', token: match[2]! };
}

/**
 * The one place that enforces route policy. Every route must declare `config.auth`: a route without one
 * stops the start, so nothing is public by accident. AI agents pass `governance` instead of the permission
 * check; without governance (an app built without the agents module) they are refused.
 */
export function registerGuard(
  app: FastifyInstance,
  deps: {
    config: Config;
    resolvers: CredentialResolver[];
    governance?: Governance;
    /** Whether an organization is the platform operator's, for `platformOnly` routes. */
    isPlatformOperator?: (tenantId: string) => Promise<boolean>;
  },
) {
  app.decorateRequest('principal', null);

  const policies: RoutePolicy[] = [];
  policiesOf.set(app, policies);
  app.addHook('onRoute', (route) => {
    const config = route.config;
    if (!config?.auth) {
      throw new Error(`route ${route.method} ${route.url} declares no auth policy (config.auth)`);
    }
    for (const method of [route.method].flat()) {
      policies.push({ method, url: route.url, auth: config.auth, permission: config.permission, kinds: config.kinds });
    }
  });

  // Dormant surfaces answer before the body is read, identically to an unknown path.
  app.addHook('onRequest', async (request) => {
    const flag = request.routeOptions.config?.flag;
    if (flag && !deps.config.flags[flag]) throw notFound();
  });

  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    const policy = config?.auth;
    if (!policy || policy === 'public') return;
    const credential = readCredential(request);
    if (!credential) throw unauthorized();
    let principal: Principal | null = null;
    for (const resolve of deps.resolvers) {
      principal = await resolve(request, credential);
      if (principal) break;
    }
    if (!principal) throw unauthorized();
    // Authenticated, but not a principal this route serves (Part A 5.1: 403, not 401), or a key with no scopes,
    // which authenticates but can call nothing (Part A 2.5).
    const admitted = config.kinds ?? KINDS_OF[policy];
    if (admitted && !admitted.includes(principal.kind)) {
      throw forbidden(config.kindRefusal ?? `This route is not open to ${KIND_NAMES[principal.kind]}`);
    }
    // An agent acts only where a permission can be delegated to it, or where the route names agents outright.
    if (principal.kind === 'agent' && !admitsAgents(config)) {
      throw forbidden('This route is not open to AI agents: it names no permission that can be delegated to one');
    }
    if (principal.kind === 'api_key' && principal.permissions.size === 0) {
      throw forbidden('This API key has no scopes: it can call nothing');
    }
    request.principal = principal;
    if (config.quarantineGated && principal.quarantined) {
      throw forbidden(
        'Organization is awaiting approval: its owner must confirm their email and approve the pending sign-up; members, OAuth clients, webhooks and API keys open then',
      );
    }
    if (config.platformOnly && !(await deps.isPlatformOperator?.(principal.tenantId))) {
      throw forbidden('Only members of the platform-operator organization may call this route');
    }
    if (principal.kind === 'agent') {
      if (!deps.governance) throw forbidden('AI agents are not served here: agent governance is not configured');
      const { permission } = config;
      const readOnly =
        SAFE_METHODS.has(request.method) || (permission !== undefined && isReadOnlyPermission(permission));
      await deps.governance.forAgents({ request, principal, permission, readOnly });
      return;
    }
    if (config.permission && !hasPermission(principal, config.permission)) {
      throw forbidden(`Missing permission: ${config.permission}`);
    }
  });

  // A person's approval of an agent's action is spent only now, after the route's validation: governance judged the
  // request before it, and a body the route refuses (422) must leave the approval for the retry that runs.
  app.addHook('preHandler', async (request) => {
    if (request.principal?.kind === 'agent' && deps.governance) await deps.governance.afterValidation(request);
  });
}

/** The principal of a route whose policy is not public (the guard has resolved it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new HttpError(401, 'Not authenticated');
  return request.principal;
}

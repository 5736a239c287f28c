import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config, FlagName } from '../../config.js';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
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
    /** Principal kinds admitted by `any` (all when absent). */
    kinds?: PrincipalKind[];
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

const KINDS_OF: Record<Exclude<AuthPolicy, 'public'>, PrincipalKind[] | undefined> = {
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

export function readCredential(request: FastifyRequest): PresentedCredential | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^(Bearer|DPoP) +([A-Za-z0-9._~+/=-]+)$/i.exec(header);
  if (!match) return null;
  return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'dpop' : 'bearer', token: match[2]! };
}

/**
 * The one place that enforces route policy. Every route must declare `config.auth`: a route without one
 * stops the start, so nothing is public by accident.
 */
export function registerGuard(app: FastifyInstance, deps: { config: Config; resolvers: CredentialResolver[] }) {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) {
      throw new Error(`route ${route.method} ${route.url} declares no auth policy (config.auth)`);
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
      throw forbidden(`This route is not open to ${KIND_NAMES[principal.kind]}`);
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
    if (config.permission && !hasPermission(principal, config.permission)) {
      throw forbidden(`Missing permission: ${config.permission}`);
    }
  });
}

/** The principal of a route whose policy is not public (the guard has resolved it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new HttpError(401, 'Not authenticated');
  return request.principal;
}

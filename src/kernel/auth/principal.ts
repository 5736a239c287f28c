import type { Actor } from '../events/index.js';

export type PrincipalKind = 'user' | 'agent' | 'api_key' | 'oauth_client' | 'scim' | 'distribution';
export type Population = 'workforce' | 'customer';

/**
 * Who is calling, resolved on every authenticated request from the database (roles, sessions, epochs and
 * memberships are never trusted from the token alone).
 */
export interface Principal {
  kind: PrincipalKind;
  tenantId: string;
  userId?: string;
  agentId?: string;
  apiKeyId?: string;
  clientId?: string;
  sessionId?: string;
  role?: string;
  permissions: ReadonlySet<string>;
  isOwner: boolean;
  population: Population | null;
  /** The organization awaits approval (Part B onboarding); quarantine-gated routes answer 403. */
  quarantined: boolean;
  actor: Actor;
  /** Kind-specific facts a resolver adds for its module (email_verified, DPoP key thumbprint…). */
  attributes: Record<string, unknown>;
}

/** The owner holds every permission; everyone else holds what their role or grant names. */
export const hasPermission = (principal: Principal, code: string) =>
  principal.isOwner || principal.permissions.has(code);

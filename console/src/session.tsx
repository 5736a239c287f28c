import { createContext, useContext } from 'react';
import type { Answer } from './api';
import { signOut } from './auth';

/** GET /api/v1/me: who is signed in, to which organization, with which role. */
export type Me = Answer<'/me'>;

export interface Session {
  me: Me;
  /** The organization signed in to: its id (from /me) and slug (named at sign-in, carried by the ID token). */
  tenant: { id: string; slug: string };
  /** GET /api/v1/me/permissions: the caller's effective permissions in this organization. */
  permissions: ReadonlySet<string>;
  can(code: string): boolean;
  /**
   * Member of the platform-operator organization with `operator:read`: probed once with
   * GET /api/v1/operator/tenants?limit=1 (the API answers 403 to every other organization).
   */
  isPlatformOperator: boolean;
  signOut(): void;
}

export function makeSession(input: {
  me: Me;
  slug: string;
  permissions: string[];
  isPlatformOperator: boolean;
}): Session {
  const permissions: ReadonlySet<string> = new Set(input.permissions);
  return {
    me: input.me,
    tenant: { id: input.me.tenant_id, slug: input.slug },
    permissions,
    can: (code) => permissions.has(code),
    isPlatformOperator: input.isPlatformOperator,
    signOut: () => void signOut(),
  };
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in person's session; every screen renders inside it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside the signed-in console');
  return session;
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../kernel/clock.js';
import type { LiveSession, SessionService } from '../sign-in/index.js';
import { createSignedState } from './signed-state.js';

/** Longest a browser stays signed in at the provider: the longest session lifetime (customers, 30 days). */
const COOKIE_LIFETIME_SECONDS = 30 * 24 * 3600;

/**
 * The browser's sign-in at the provider (Part A 4.14, hosted pages): a cookie naming a service session, MAC'd so
 * it cannot be forged, httpOnly, SameSite=Lax (the authorize redirect from the client's site must carry it) and
 * Secure over HTTPS with the `__Host-` prefix. The session behind it is read live on every use, so every
 * revocation of Part A 3 signs the browser out too.
 */
export function createBrowserSessions(deps: {
  baseUrl: string;
  secretKey: Buffer;
  clock: Clock;
  sessions: SessionService;
}) {
  const secure = deps.baseUrl.startsWith('https:');
  const cookieName = secure ? '__Host-svc_op_session' : 'svc_op_session';
  const cookieOptions = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  const signed = createSignedState<{ tid: string; sid: string }>({
    secretKey: deps.secretKey,
    clock: deps.clock,
    purpose: 'browser-session',
    lifetimeSeconds: COOKIE_LIFETIME_SECONDS,
  });
  return {
    cookieName,
    /** The live session the browser is signed in with, if any. */
    async read(request: FastifyRequest): Promise<LiveSession | undefined> {
      const value = signed.verify(request.cookies?.[cookieName]);
      if (!value) return undefined;
      return deps.sessions.liveSession(value.tid, value.sid);
    },
    set(reply: FastifyReply, session: { tenantId: string; sessionId: string }): void {
      reply.setCookie(cookieName, signed.sign({ tid: session.tenantId, sid: session.sessionId }), {
        ...cookieOptions,
        maxAge: COOKIE_LIFETIME_SECONDS,
      });
    },
    clear(reply: FastifyReply): void {
      reply.clearCookie(cookieName, cookieOptions);
    },
  };
}

export type BrowserSessions = ReturnType<typeof createBrowserSessions>;

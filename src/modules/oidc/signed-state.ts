import { createHmac } from 'node:crypto';
import type { Clock } from '../../kernel/clock.js';
import { purposeKey, secretsEqual } from '../../kernel/crypto/index.js';

/**
 * Small, tamper-evident values the provider hands the browser and reads back (an authorization request waiting
 * on the sign-in or consent page, the end-session request, the browser-session cookie): base64url JSON plus an
 * HMAC-SHA-256 under a key derived for the purpose, with an expiry. Nothing secret is inside: the values came
 * from the browser's own request, and the session id in the cookie is useless without its MAC.
 */
export function createSignedState<T extends object>(deps: {
  secretKey: Buffer;
  clock: Clock;
  purpose: string;
  lifetimeSeconds: number;
}) {
  const key = purposeKey(deps.secretKey, `oidc:${deps.purpose}`);
  const mac = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  return {
    lifetimeSeconds: deps.lifetimeSeconds,
    sign(value: T): string {
      const exp = Math.floor(deps.clock.now().getTime() / 1000) + deps.lifetimeSeconds;
      const body = Buffer.from(JSON.stringify({ ...value, exp })).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    /** The value, or undefined when the MAC does not match, the value is malformed or it has expired. */
    verify(signed: string | undefined): T | undefined {
      if (!signed || signed.length > 8192) return undefined;
      const dot = signed.indexOf('.');
      if (dot < 1) return undefined;
      const body = signed.slice(0, dot);
      if (!secretsEqual(mac(body), signed.slice(dot + 1))) return undefined;
      try {
        const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp: number };
        if (typeof value.exp !== 'number' || value.exp * 1000 <= deps.clock.now().getTime()) return undefined;
        return value;
      } catch {
        return undefined;
      }
    },
  };
}

export type SignedState<T extends object> = ReturnType<typeof createSignedState<T>>;

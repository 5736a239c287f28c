import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { EventEnvelope } from '../../src/kernel/events/index.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

/** Shared helpers of the Command Center e2e files (not a test file itself). */
export type Owner = Awaited<ReturnType<typeof signUpOwner>>;
export type PlatformOwner = Awaited<ReturnType<typeof bootstrapPlatformOwner>>;

/**
 * The service, its platform operator and two organizations, alpha and beta: what confinement to the caller's
 * organization (across organizations for the operator) is tested between.
 */
export async function startWithTwoOrganizations(...args: Parameters<typeof startService>) {
  const svc = await startService(...args);
  const platform = await bootstrapPlatformOwner(svc);
  const alpha = await signUpOwner(svc.url, 'alpha');
  const beta = await signUpOwner(svc.url, 'beta');
  return { svc, platform, alpha, beta };
}

/** A sign-in of `who` with a wrong password, refused with 401; the service records `user.login_failed`. */
async function signInWithWrongPassword(svc: TestService, who: Owner) {
  const res = await request(`${svc.url}/api/v1/auth/login`, {
    json: { email: who.email, password: 'not the password at all', tenant_slug: who.slug },
  });
  expect(res.status).toBe(401);
}

/** A failed sign-in of `who`; its record is written after the answer, so this waits for that work. */
export async function failSignIn(svc: TestService, who: Owner) {
  await signInWithWrongPassword(svc, who);
  await svc.deps.afterAnswer.drain();
}

/**
 * Failed sign-ins of `owners` in turn, each a second after the one before on the service's clock (so the lists
 * order them by time), their records written by the time it resolves.
 */
export async function failSignInsSecondApart(svc: TestService, owners: Owner[]) {
  for (const who of owners) {
    svc.clock.advance(1000);
    await signInWithWrongPassword(svc, who);
  }
  await svc.deps.afterAnswer.drain();
}

interface Stream {
  status: number;
  headers: IncomingHttpHeaders;
  text(): string;
  events(): EventEnvelope[];
  /** Resolves once the received text satisfies `holds`; fails after `timeoutMs`. */
  until(holds: (text: string) => boolean, timeoutMs?: number): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

/** A Server-Sent Events client over plain HTTP, holding everything it received. */
export function openStream(url: string, token?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      const listeners = new Set<() => void>();
      const tell = () => {
        for (const listener of [...listeners]) listener();
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        tell();
      });
      res.on('error', () => undefined);
      const ended = new Promise<void>((done) => res.once('close', done));
      void ended.then(tell);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        events: () =>
          text
            .split('\n\n')
            .filter((frame) => frame.startsWith('data: '))
            .map((frame) => JSON.parse(frame.slice('data: '.length)) as EventEnvelope),
        until(holds, timeoutMs = 15_000) {
          return new Promise<void>((done, fail) => {
            const check = () => {
              if (!holds(text)) return;
              listeners.delete(check);
              clearTimeout(timer);
              done();
            };
            const timer = setTimeout(() => {
              listeners.delete(check);
              fail(new Error(`stream: not seen within ${timeoutMs} ms; received:\n${text.slice(-2000)}`));
            }, timeoutMs);
            listeners.add(check);
            check();
          });
        },
        ended,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/** The comment the stream sends first, once it is subscribed to the live tip. */
export const opened = (text: string) => text.includes(': stream open\n\n');

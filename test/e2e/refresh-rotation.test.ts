import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

/** Refresh rotation runs as one statement (docs/decisions.md): its edges, over HTTP. */
let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const refresh = (token: string) => request(api('/auth/refresh'), { json: { refresh_token: token } });

async function signUp() {
  const res = await request(api('/auth/signup'), { json: newAccount('rotation') });
  expect(res.status).toBe(201);
  return res.body as { access_token: string; refresh_token: string };
}

describe('refresh rotation', () => {
  it('two concurrent uses of one token: one rotation wins, the other is a replay that ends the session', async () => {
    const tokens = await signUp();
    const answers = await Promise.all([refresh(tokens.refresh_token), refresh(tokens.refresh_token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const winner = answers.find((a) => a.status === 200)!;
    // The session ended with the replay: the winner's new tokens are refused too.
    expect((await refresh(winner.body.refresh_token)).status).toBe(401);
    expect((await request(api('/me'), { token: winner.body.access_token })).status).toBe(401);
  });

  it('slides the session expiry by the population lifetime and stores only hashes', async () => {
    const tokens = await signUp();
    svc.clock.advance(3_600_000);
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);
    const me = await request(api('/me'), { token: rotated.body.access_token });
    const [session] = await rows<{ expires_at: string; last_used_at: string }>(
      svc.deps.database.db,
      sql`select expires_at, last_used_at from sessions where user_id = ${me.body.user_id}`,
    );
    const now = svc.clock.now().getTime();
    expect(new Date(session!.last_used_at).getTime()).toBe(now);
    expect(new Date(session!.expires_at).getTime()).toBe(now + 7 * 86_400_000);
    const stored = await rows<{ token_hash: string }>(
      svc.deps.database.db,
      sql`select token_hash from refresh_tokens where token_hash in (${rotated.body.refresh_token}, ${tokens.refresh_token})`,
    );
    expect(stored).toEqual([]);
  });

  it('a token of an expired session neither rotates nor revives the session', async () => {
    const tokens = await signUp();
    svc.clock.advance(8 * 86_400_000);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
    svc.clock.advance(-8 * 86_400_000);
    // Nothing slid the expiry forward: back inside the lifetime, the untouched token still rotates once.
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });
});

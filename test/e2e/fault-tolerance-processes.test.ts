import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, request } from '../support/http.js';
import { type NodeProcess, startNodeProcess } from '../support/node-process.js';

/**
 * Issue 18, item 4: three `svc serve` processes on one PostgreSQL (and Redis), one of them SIGKILLed under a
 * load of sign-ins and refreshes. Separate processes share no memory, so this runs on PostgreSQL only (an
 * embedded data directory has one owner).
 */
const databaseUrl = process.env.DATABASE_URL;
const schema = `ftp_${randomBytes(5).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-fault-'));
/** The load balancer's view of the client: per-IP budgets (sign-up) are this run's own, whatever Redis holds. */
const clientIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const nodes: NodeProcess[] = [];
let direct: pg.Client | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  const env = {
    SVC_ENV: 'test',
    SECRET_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    DATA_DIR: dataDir,
    PUBLIC_SIGNUP_ENABLED: 'true',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'error',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  // The first alone migrates the schema (and warms tsx's transform cache), then the other two join it.
  nodes.push(await startNodeProcess(env));
  const others = await Promise.allSettled([startNodeProcess(env), startNodeProcess(env)]);
  for (const other of others) if (other.status === 'fulfilled') nodes.push(other.value);
  for (const other of others) if (other.status === 'rejected') throw other.reason;
  direct = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await direct.connect();
}, 240_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  if (direct) {
    await direct.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const headers = { 'x-forwarded-for': clientIp };
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

interface Chain {
  /** The newest refresh token the client was answered. */
  refresh: string;
  /** A refresh of `refresh` was sent and never answered (its node was killed): did it commit? */
  inDoubt: boolean;
}

interface Tally {
  /** Answers per node: 2xx, other statuses, and requests that got no answer at all. */
  ok: number[];
  refused: Array<{ node: number; status: number; text: string }>;
  unanswered: number[];
  signInsAnswered: number;
  signInsUnanswered: number;
  accessTokens: string[];
}

describe.runIf(databaseUrl)('a node killed with SIGKILL under load', () => {
  it('loses no answered write, breaks no refresh chain, and the other nodes keep serving', async () => {
    const victim = 2;
    let killed = false;
    const accounts = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const account = newAccount('kill');
        const res = await request(`${nodes[0]!.url}/api/v1/auth/signup`, { json: account, headers });
        expect(res.status, res.text).toBe(201);
        return { ...account, slug: account.organization_name.toLowerCase().replace(/ /g, '-') };
      }),
    );
    const chains: Chain[] = [];
    const tally: Tally = {
      ok: [0, 0, 0],
      refused: [],
      unanswered: [0, 0, 0],
      signInsAnswered: 0,
      signInsUnanswered: 0,
      accessTokens: [],
    };
    const deadline = performance.now() + 20_000;
    const stepsPerClient = 25;
    const killAfterAnswers = 40;

    /** One request to node `index`: its answer, or undefined when the connection failed (the node died). */
    async function send(index: number, path: string, json: unknown) {
      try {
        const res = await request(`${nodes[index]!.url}/api/v1${path}`, { json, headers });
        if (res.status >= 200 && res.status < 300) tally.ok[index]! += 1;
        else tally.refused.push({ node: index, status: res.status, text: res.text });
        if (!killed && tally.ok.reduce((a, b) => a + b, 0) >= killAfterAnswers) {
          killed = true;
          nodes[victim]!.child.kill('SIGKILL');
        }
        return res;
      } catch {
        tally.unanswered[index]! += 1;
        return undefined;
      }
    }

    async function client(number: number, account: (typeof accounts)[number]): Promise<void> {
      let chain: Chain | undefined;
      for (let step = 0; step < stepsPerClient && performance.now() < deadline; step++) {
        // Round robin over the nodes; the load balancer stops sending to a node once it is gone.
        let index = (number + step) % nodes.length;
        if (killed && index === victim) index = (index + 1) % nodes.length;
        if (!chain || step % 8 === 0) {
          const res = await send(index, '/auth/login', {
            email: account.email,
            password: account.password,
            tenant_slug: account.slug,
          });
          if (!res) tally.signInsUnanswered += 1;
          if (res?.status === 200) {
            tally.signInsAnswered += 1;
            tally.accessTokens.push(res.body.access_token);
            chain = { refresh: res.body.refresh_token, inDoubt: false };
            chains.push(chain);
          }
          continue;
        }
        const res = await send(index, '/auth/refresh', { refresh_token: chain.refresh });
        if (!res) {
          // Strict rotation (docs/decisions.md): the client cannot tell whether the rotation committed, and
          // presenting the token again would count as a replay if it did. It signs in again instead.
          chain.inDoubt = true;
          chain = undefined;
        } else if (res.status === 200) {
          chain.refresh = res.body.refresh_token;
          tally.accessTokens.push(res.body.access_token);
        }
      }
    }

    await Promise.all(accounts.map((account, i) => client(i, account)));
    expect(killed).toBe(true);
    expect(await nodes[victim]!.exited).toBe('SIGKILL');

    // The other nodes answered everything, and with success; only the killed node left requests unanswered.
    expect(tally.refused).toEqual([]);
    expect(tally.unanswered.filter((_, i) => i !== victim)).toEqual([0, 0]);
    const survivor = (i: number) => nodes[i % 2]!.url;

    // No refresh chain broken: nothing was taken for a replay, every session is live...
    const revoked = await direct!.query('select count(*)::int as n from sessions where revoked_at is not null');
    expect(revoked.rows[0].n).toBe(0);
    for (const [i, chain] of chains.entries()) {
      const [token] = (
        await direct!.query('select session_id, rotated_at from refresh_tokens where token_hash = $1', [
          sha256Hex(chain.refresh),
        ])
      ).rows as Array<{ session_id: string; rotated_at: Date | null }>;
      // ...every token a client was answered is stored (its rotation committed)...
      expect(token).toBeDefined();
      if (token!.rotated_at === null) {
        // ...and the newest one of each chain still rotates, on any node left,
        const next = await request(`${survivor(i)}/api/v1/auth/refresh`, {
          json: { refresh_token: chain.refresh },
          headers,
        });
        expect(next.status, next.text).toBe(200);
      } else {
        // ...unless the kill took the answer of its rotation, which then committed whole: the session holds
        // exactly one unspent successor.
        expect(chain.inDoubt).toBe(true);
        const live = await direct!.query(
          'select count(*)::int as n from refresh_tokens where session_id = $1 and rotated_at is null',
          [token!.session_id],
        );
        expect(live.rows[0].n).toBe(1);
      }
    }

    // Every answered sign-in has its session; an unanswered one may or may not have committed.
    const sessions = await direct!.query('select count(*)::int as n from sessions');
    const signUps = accounts.length;
    expect(sessions.rows[0].n).toBeGreaterThanOrEqual(signUps + tally.signInsAnswered);
    expect(sessions.rows[0].n).toBeLessThanOrEqual(signUps + tally.signInsAnswered + tally.signInsUnanswered);
    // Every access token answered (before or after the kill, by any node) is honoured by the nodes left.
    for (const [i, token] of tally.accessTokens.entries()) {
      const me = await request(`${survivor(i)}/api/v1/me`, { token, headers });
      expect(me.status).toBe(200);
    }
  });
});

// Seeds the service's own tables for bench/scale.mjs, directly in its PostgreSQL schema with multi-row
// INSERT ... SELECT generate_series (the rows are made by PostgreSQL itself: no round trip per row, nothing
// streamed from here). Per account: a user (all sharing ONE precomputed argon2id hash: hashing a million
// passwords would take hours and measures nothing), a membership, a live session, its refresh-token history
// (one rotated token and the current one) and one event. Organizations: the bench organization plus 999
// seeded ones; account i belongs to organization i mod 1,000 (0 = the bench one), so each has the same share.
// Seeded ids are made of a kind letter and the row number (`a…0001`), so they never collide with the
// service's own and each chunk can refer to the rows of another by number alone.
import { log } from './util.mjs';

export const ORGANIZATIONS = 1000;
const CHUNK = 100_000;

const id = (kind, expression) => `('${kind}' || lpad(to_hex(${expression}), 31, '0'))::uuid`;

/** The organization of account `i`: the bench one for i mod 1,000 = 0, else the seeded one of that number. */
const tenantOf = (benchTenantId, expression) =>
  `(CASE WHEN (${expression}) % ${ORGANIZATIONS} = 0 THEN '${benchTenantId}'::uuid ` +
  `ELSE ${id('f', `(${expression}) % ${ORGANIZATIONS}`)} END)`;

/** The 999 seeded organizations (created once). */
export async function seedOrganizations(client) {
  await client.query(
    `INSERT INTO tenants (id, name, name_key, slug, created_at)
     SELECT ${id('f', 'i')}, 'Scale org ' || i, 'scale org ' || i, 'scale-org-' || i, now()
     FROM generate_series(1, ${ORGANIZATIONS - 1}) AS i`,
  );
}

/** Accounts numbered `from` to `to` (inclusive) with everything they own, in chunks of CHUNK. */
export async function seedAccounts(client, { from, to, benchTenantId, passwordHash }) {
  const hash = passwordHash.replaceAll("'", "''");
  for (let start = from; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    const series = `generate_series(${start}, ${end}) AS i`;
    const tenant = tenantOf(benchTenantId, 'i');
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (id, email, email_key, email_verified, password_hash, status, token_epoch, name,
         profile_source, password_changed_at, created_at, updated_at)
       SELECT ${id('a', 'i')}, 'seed-' || i || '@scale.example', 'seed-' || i || '@scale.example', true, '${hash}',
         'active', 0, 'Seed ' || i, 'local', now() - interval '30 days', now() - interval '30 days', now()
       FROM ${series}`,
    );
    await client.query(
      `INSERT INTO memberships (id, tenant_id, user_id, role, population, status, created_at)
       SELECT ${id('b', 'i')}, ${tenant}, ${id('a', 'i')}, 'member', 'workforce', 'active', now() - interval '30 days'
       FROM ${series}`,
    );
    await client.query(
      `INSERT INTO sessions (id, tenant_id, user_id, epoch, amr, auth_time, user_agent, created_at, last_used_at,
         expires_at)
       SELECT ${id('c', 'i')}, ${tenant}, ${id('a', 'i')}, 0, '["pwd"]'::jsonb, now() - interval '1 day',
         'scale-seed', now() - interval '1 day', now() - (i % 3600) * interval '1 second', now() + interval '6 days'
       FROM ${series}`,
    );
    // Two per session: the rotated one (spent an hour ago) and the current one.
    await client.query(
      `INSERT INTO refresh_tokens (id, tenant_id, session_id, token_hash, created_at, expires_at, rotated_at)
       SELECT ${id('d', '2 * i + r')}, ${tenant}, ${id('c', 'i')}, md5('seed-refresh-' || (2 * i + r)) ||
         md5('scale-' || (2 * i + r)), now() - interval '1 day', now() + interval '6 days',
         CASE WHEN r = 0 THEN now() - interval '1 hour' END
       FROM ${series}, generate_series(0, 1) AS r`,
    );
    await client.query(
      `INSERT INTO events (id, tenant_id, occurred_at, actor_id, actor_type, subject_user_id, category, action,
         severity, outcome, data)
       SELECT ${id('e', 'i')}, ${tenant}, now() - (i % 86400) * interval '1 second', ${id('a', 'i')}::text, 'human',
         ${id('a', 'i')}, 'auth', 'user.login', 'info', 'success', '{}'::jsonb
       FROM ${series}`,
    );
    await client.query('COMMIT');
    log(`seeded accounts ${start}-${end}`);
  }
}

/** Fresh statistics and visibility maps, as a database that grew over time would have. */
export async function analyze(client) {
  await client.query('VACUUM (ANALYZE) tenants, users, memberships, sessions, refresh_tokens, events');
}

/** Row counts of the seeded tables (the report's proof of size). */
export async function counts(client) {
  const out = {};
  for (const table of ['tenants', 'users', 'memberships', 'sessions', 'refresh_tokens', 'events']) {
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${table}`);
    out[table] = rows[0].n;
  }
  return out;
}

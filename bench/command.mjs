#!/usr/bin/env node
// The Command Center on a large history (issue 22), standalone: `npm run build && node bench/command.mjs`, and the
// last script of `npm run bench`. PostgreSQL only (DATABASE_URL): without it the script says so and exits 0. Prints
// ONE JSON document on stdout (and to FILE with `--json FILE`); progress goes to stderr.
//
// The service runs in its own schema. Its tables are seeded with SQL (INSERT … SELECT generate_series, the rows
// made by PostgreSQL itself) across 100 organizations: first the newest BENCH_COMMAND_FIRST events (10,000, the
// last 7 days of the platform), then older ones up to BENCH_COMMAND_EVENTS (1,000,000: the same steady rate
// going back about two years). Each event has its audit entry (the evidence export reads the audit log), and one
// detection is seeded per 100 events, on the same time line. So what the second size adds is history only: the
// newest week, which the measured requests look at, is the same at both sizes.
//
// At each size, three requests of the measured organization (the largest of the 100, its owner's bearer token):
//   1. GET /command/events?actor_type=human&severity=warn&limit=100
//   2. GET /command/detections/summary (the last 7 days, its default)
//   3. GET /command/compliance/evidence?framework=soc2&export=true&days=7 (every evidencing entry of the week)
// and, without a target, the same export over its default 90 days (which is longer than the first size's history).
// Each is timed in sequential rounds of three, the order turning round by round: the route over HTTP; the same
// service call in this process over the kernel's own transactions (the route without HTTP, authentication and
// serialization); and the route's SQL run directly (same statements, same parameters, same role and row-level
// security, one round trip a statement). The SQL is captured by running the Command Center's own services (dist/)
// once over a logging connection, so it is the SQL the routes run. Targets: each request's p95 at the largest size
// within 2x of its p95 at the first size, and GET /command/events within 3x of its SQL run directly (p95). Plans
// (EXPLAIN ANALYZE) are reported at each size.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { Agent, get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { emitReport } from './peer-loads.mjs';
import { ROOT, runStorage, signUpOrganization } from './service.mjs';
import {
  commonSettings,
  log,
  positiveInteger,
  postJson,
  quietBefore,
  round,
  runBench,
  stopAllChildren,
  stopChild,
  withCpu,
} from './util.mjs';

const settings = {
  ...commonSettings(),
  first: positiveInteger('BENCH_COMMAND_FIRST', 10_000),
  events: positiveInteger('BENCH_COMMAND_EVENTS', 1_000_000),
  runs: positiveInteger('BENCH_COMMAND_RUNS', 200),
  warmupRuns: Number(process.env.BENCH_COMMAND_WARMUP_RUNS ?? 20),
  wideRuns: Number(process.env.BENCH_COMMAND_WIDE_RUNS ?? 20),
  // Rounds of the events list, whose p95 against its SQL is a target: its rounds are short, so it gets more.
  eventsRuns: positiveInteger('BENCH_COMMAND_EVENTS_RUNS', 1000),
  // Only these requests (comma-separated names, e.g. events_list), for profiling and quick iterations.
  only: process.env.BENCH_COMMAND_ONLY ? process.env.BENCH_COMMAND_ONLY.split(',') : undefined,
};
if (settings.first < 1000 || settings.events <= settings.first) {
  throw new Error('BENCH_COMMAND_FIRST must be at least 1000 and below BENCH_COMMAND_EVENTS');
}
for (const name of ['warmupRuns', 'wideRuns']) {
  if (!Number.isInteger(settings[name]) || settings[name] < 0) throw new Error(`${name}: a whole number >= 0`);
}
const HISTORY_TARGET = 2;
const FIRST_WARMUP = 5;
const SQL_TARGET = 3;
const ORGANIZATIONS = 100;
/** The newest BENCH_COMMAND_FIRST events span this many days; older ones go back at the same rate. */
const RECENT_DAYS = 7;
const EVENTS_PER_DETECTION = 100;
const TENANT_SLOTS = 10_000;
const MAX_BIGINT = '9223372036854775807';

const storage = runStorage('command');
const { runId, databaseUrl, schema } = storage;
let service;
let seeder;
let direct;
let inProcess;
let inProcessTenantSessions;

// ---- What is seeded ----

/** The kernel's default compliance tags by category (src/kernel/events/events.ts), as the audit entries carry them. */
const TAGS = {
  auth: ['soc2:CC6.1', 'iso27001:A.8.5'],
  session: ['soc2:CC6.1', 'iso27001:A.8.5'],
  admin: ['soc2:CC6.2', 'iso27001:A.5.18'],
  security: ['soc2:CC7.2', 'iso27001:A.8.16'],
  privacy: ['gdpr:Art.30'],
  agent: ['soc2:CC6.1', 'iso27001:A.5.18'],
};

/**
 * The kinds of event and their share per mille: people signing in and out most of the time, agents minting
 * tokens, clients at the token endpoint, a few administrative changes, rare security signals. About 14 % are `warn`,
 * two thirds of those by people; `high` and `critical` together under 2 %.
 */
const TEMPLATES = [
  ['auth', 'user.logged_in', 'info', 'success', 'human', 300],
  ['auth', 'user.login_failed', 'warn', 'failure', 'human', 70],
  ['session', 'session.logged_out', 'info', 'success', 'human', 80],
  ['session', 'session.revoked', 'low', 'success', 'human', 10],
  ['auth', 'mfa.challenge_failed', 'warn', 'failure', 'human', 15],
  ['auth', 'user.password_changed', 'low', 'success', 'human', 10],
  ['admin', 'member.role_changed', 'low', 'success', 'human', 10],
  ['admin', 'invitation.created', 'info', 'success', 'human', 15],
  ['admin', 'setting.changed', 'warn', 'success', 'human', 5],
  ['privacy', 'consent.granted', 'info', 'success', 'human', 30],
  ['privacy', 'privacy.data_exported', 'low', 'success', 'human', 5],
  ['admin', 'agent.delegation_granted', 'low', 'success', 'human', 10],
  ['security', 'session.refresh_replayed', 'high', 'failure', 'human', 3],
  ['security', 'user.login_throttled', 'high', 'denied', 'human', 7],
  ['agent', 'agent.token_minted', 'info', 'success', 'agent', 150],
  ['agent', 'agent.action_refused', 'warn', 'denied', 'agent', 30],
  ['agent', 'approval.requested', 'low', 'success', 'agent', 15],
  ['agent', 'agent.action_refused', 'high', 'denied', 'agent', 4],
  ['auth', 'oauth.token_issued', 'info', 'success', 'service', 130],
  ['auth', 'oauth.client_authentication_failed', 'warn', 'failure', 'service', 10],
  ['admin', 'scim.user_created', 'info', 'success', 'service', 15],
  ['session', 'oauth.backchannel_logout_sent', 'info', 'success', 'system', 15],
  ['privacy', 'retention.records_purged', 'info', 'success', 'system', 5],
  ['auth', 'social.sign_in_refused', 'warn', 'denied', 'system', 8],
  ['security', 'agent.kill_switch_engaged', 'critical', 'success', 'system', 1],
  ['security', 'passkey.clone_suspected', 'critical', 'failure', 'system', 1],
];
const EXTRA_DATA = {
  'setting.changed': { key: 'members.domain_join_enabled', old_value: true, new_value: false },
};

/** Detection rules as the modules raise them (rule id, severity, group key prefix, share per mille). */
const RULES = [
  ['repeated-sign-in-failures', 'high', 'actor:', 450],
  ['refresh-token-replay', 'high', 'actor:', 150],
  ['authorization-code-replay', 'high', 'client:', 50],
  ['passkey-clone-suspected', 'high', 'actor:', 20],
  ['high-risk-setting-changed', 'high', 'setting:', 50],
  ['agent-task-scope-exceeded', 'high', 'task:', 150],
  ['agent-blast-radius-breaker', 'critical', 'agent:', 30],
  ['agent-credential-stale', 'warn', 'agent:', 80],
  ['agent-kill-switch-changed', 'critical', 'event:', 10],
  ['approval-break-glass', 'critical', 'approval:', 10],
];

const literal = (text) => `'${String(text).replaceAll("'", "''")}'`;

/** `slots` entries, each the index (1-based) of a weight, in proportion to the weights (largest remainder). */
function slotsOf(weights, slots) {
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * slots);
  const counts = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0]);
  for (let r = slots - counts.reduce((a, b) => a + b, 0), i = 0; r > 0; r--, i++) counts[order[i][1]]++;
  return counts.flatMap((count, i) => Array(count).fill(i + 1));
}

/**
 * Organization sizes follow Zipf's law (weight 1/rank): a few large customers, a long tail. Rank 1 is the measured
 * organization (about 19 % of the events), rank 100 the platform operator's.
 */
function organizations(measuredId) {
  const weights = Array.from({ length: ORGANIZATIONS }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const ids = weights.map((_, i) =>
    i === 0 ? measuredId : `0000b0c0-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`,
  );
  const people = weights.map((w) => Math.max(5, Math.round((2000 * w) / total)));
  return {
    ids,
    share: weights[0] / total,
    people,
    agents: people.map((n) => Math.max(1, Math.round(n / 25))),
    clients: people.map((n) => Math.max(1, Math.round(n / 100))),
    slots: slotsOf(weights, TENANT_SLOTS),
  };
}

const arrayOf = (values, type) => `'{${values.join(',')}}'::${type}[]`;
/** A uniform number in [0, 1) from the row number and a stream number, the same on every run. */
const uniform = (column, stream) => `((hashint8extended(${column}, ${stream}) & ${MAX_BIGINT}) % 1000000) / 1000000.0`;
const slot = (column, stream, size) => `1 + (hashint8extended(${column}, ${stream}) & ${MAX_BIGINT}) % ${size}`;

/** The statement seeding events numbered `$2`…`$3` (1 = the newest) and their audit entries. */
function eventsStatement(orgs) {
  const templateSlots = slotsOf(
    TEMPLATES.map((t) => t[5]),
    1000,
  );
  const values = TEMPLATES.map(
    ([category, action, severity, outcome, actorType], i) =>
      `(${i + 1}, ${literal(category)}, ${literal(action)}, ${literal(severity)}, ${literal(outcome)}, ` +
      `${literal(actorType)}, ${literal(JSON.stringify(TAGS[category] ?? []))}::jsonb, ` +
      `${literal(JSON.stringify(EXTRA_DATA[action] ?? {}))}::jsonb)`,
  ).join(',\n');
  const uuidOf = (k, variant, j) =>
    `(lpad(to_hex(${k}), 8, '0') || '-0000-4000-${variant}000-' || lpad(to_hex(${j}), 12, '0'))`;
  const pick = (counts, u) => `floor((${arrayOf(counts, 'int')})[p.k] * ${u})::int`;
  // $1 newest instant, $2 $3 first and last event number, $4 the audit sequence reserved before the first,
  // $5 how many were reserved, $6 the chain hash before the reservation. Event g is (g - 1) steps before $1; its
  // audit entry is number $4 + $5 - g + 1, so the sequence runs with time.
  const step = ((RECENT_DAYS * 86_400_000_000) / settings.first).toFixed(0);
  const seqOf = (g) => `($4::bigint + $5::bigint - ${g} + 1)`;
  const hashOf = (seq) => `encode(sha256(convert_to('bench-seed-' || ${seq}, 'UTF8')), 'hex')`;
  return `WITH tpl (n, category, action, severity, outcome, actor_type, tags, extra) AS (VALUES ${values}),
  picked AS (
    SELECT g, $1::timestamptz - ((g - 1) * ${step}::float8) * interval '1 microsecond' AS at,
           (${arrayOf(orgs.slots, 'int')})[${slot('g', 11, TENANT_SLOTS)}] AS k,
           (${arrayOf(templateSlots, 'int')})[${slot('g', 12, 1000)}] AS n,
           ${uniform('g', 13)} AS u, ${uniform('g', 14)} AS v
    FROM generate_series($2::bigint, $3::bigint) AS g
  ),
  src AS (
    SELECT p.g, p.at, t.category, t.action, t.severity, t.outcome, t.actor_type, t.tags,
           (${arrayOf(orgs.ids, 'uuid')})[p.k] AS tenant_id,
           CASE t.actor_type
             WHEN 'human' THEN ${uuidOf('p.k', 'a', pick(orgs.people, 'p.u * p.u'))}
             WHEN 'agent' THEN ${uuidOf('p.k', 'b', pick(orgs.agents, 'p.u'))}
             WHEN 'service' THEN 'cli_' || lpad(to_hex(p.k), 4, '0') || lpad(to_hex(${pick(orgs.clients, 'p.u')}), 4, '0')
             ELSE 'system' END AS actor_id,
           CASE WHEN p.v < 0.9 THEN 'req-' || left(md5(p.g::text), 16) END AS correlation_id,
           jsonb_build_object('ip', '203.0.113.' || (1 + p.g % 254),
             'user_agent', (ARRAY['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)', 'Mozilla/5.0 (Windows NT 10.0; Win64)',
                                  'svc-sdk/1.4 node/20'])[1 + p.g % 3]) || t.extra AS data,
           -- A UUIDv7 shape: the instant in milliseconds, then the event number.
           (lpad(to_hex(floor(extract(epoch FROM p.at) * 1000)::bigint), 12, '0') || '7'
             || lpad(to_hex(p.g % 4096), 3, '0') || '8' || lpad(to_hex(p.g), 15, '0'))::uuid AS id
    FROM picked p JOIN tpl t USING (n)
  ),
  inserted AS (
    INSERT INTO events (id, tenant_id, occurred_at, actor_id, actor_type, subject_user_id, category, action, severity,
                        outcome, correlation_id, data)
    SELECT id, tenant_id, at, actor_id, actor_type, CASE WHEN actor_type = 'human' THEN actor_id::uuid END, category,
           action, severity, outcome, correlation_id, data
    FROM src
  )
  INSERT INTO audit_log (seq, tenant_id, event_id, occurred_at, actor_id, actor_type, action, outcome, correlation_id,
                         compliance_tags, data, prev_hash, entry_hash)
  SELECT ${seqOf('g')}, tenant_id, id, at, actor_id, actor_type, action, outcome, correlation_id, tags, data,
         CASE WHEN g = $5::bigint THEN $6 ELSE ${hashOf(`${seqOf('g')} - 1`)} END, ${hashOf(seqOf('g'))}
  FROM src`;
}

/** The statement seeding detections numbered `$2`…`$3` (1 = the newest), one per EVENTS_PER_DETECTION events. */
function detectionsStatement(orgs) {
  const ruleSlots = slotsOf(
    RULES.map((r) => r[3]),
    1000,
  );
  const values = RULES.map(
    ([rule, severity, prefix], i) => `(${i + 1}, ${literal(rule)}, ${literal(severity)}, ${literal(prefix)})`,
  ).join(', ');
  const step = ((RECENT_DAYS * 86_400_000_000 * EVENTS_PER_DETECTION) / settings.first).toFixed(0);
  return `WITH rules (r, rule_id, severity, prefix) AS (VALUES ${values}),
  picked AS (
    SELECT d, $1::timestamptz - ((d - 1) * ${step}::float8) * interval '1 microsecond' AS last_seen,
           (${arrayOf(orgs.slots, 'int')})[${slot('d', 21, TENANT_SLOTS)}] AS k,
           (${arrayOf(ruleSlots, 'int')})[${slot('d', 22, 1000)}] AS r,
           ${uniform('d', 23)} AS u, ${uniform('d', 24)} AS v
    FROM generate_series($2::bigint, $3::bigint) AS d
  )
  INSERT INTO detections (id, tenant_id, scope, rule_id, group_key, severity, status, count, first_seen, last_seen,
                          data, note)
  SELECT (lpad(to_hex(floor(extract(epoch FROM last_seen) * 1000)::bigint), 12, '0') || '7d0a8'
            || lpad(to_hex(d), 15, '0'))::uuid,
         t.id, t.id::text, rules.rule_id,
         rules.prefix || lpad(to_hex(p.k), 8, '0') || '-0000-4000-d000-' || lpad(to_hex(d), 12, '0'),
         rules.severity, s.status, 1 + floor(20 * p.v * p.v)::int,
         last_seen - floor(p.v * 86400) * interval '1 second', last_seen,
         jsonb_build_object('seeded', true), CASE WHEN s.status = 'resolved' THEN 'triaged' END
  FROM picked p
  JOIN rules USING (r)
  CROSS JOIN LATERAL (SELECT (${arrayOf(orgs.ids, 'uuid')})[p.k] AS id) t
  CROSS JOIN LATERAL (
    SELECT CASE
      WHEN last_seen > $1::timestamptz - interval '2 days'
        THEN CASE WHEN p.u < 0.7 THEN 'open' WHEN p.u < 0.9 THEN 'acknowledged' ELSE 'resolved' END
      WHEN last_seen > $1::timestamptz - interval '${RECENT_DAYS} days'
        THEN CASE WHEN p.u < 0.3 THEN 'open' WHEN p.u < 0.5 THEN 'acknowledged' ELSE 'resolved' END
      ELSE CASE WHEN p.u < 0.01 THEN 'open' WHEN p.u < 0.05 THEN 'acknowledged' ELSE 'resolved' END
    END AS status
  ) s`;
}

const CHUNK = 50_000;

/** The other 99 organizations (rank 100 is the platform operator's) and the audit sequence the seed will use. */
async function seedOrganizations(orgs) {
  const rows = orgs.ids
    .slice(1)
    .map(
      (id, i) =>
        `('${id}', 'Command org ${i + 2}', 'command org ${i + 2}', 'command-org-${runId}-${i + 2}', ${
          i + 2 === ORGANIZATIONS
        }, now() - interval '3 years')`,
    );
  await seeder.query(
    `INSERT INTO tenants (id, name, name_key, slug, is_platform_operator, created_at) VALUES ${rows.join(', ')}`,
  );
  // Reserves the sequence numbers of every seeded audit entry at once, under the chain head's lock: the service's
  // own entries (sign-ins) follow them, chained to the head hash left here. The seeded entries themselves carry
  // stand-in hashes (linked to each other, not verifiable): the chain is for verify's own tests, not this one.
  const { rows: reserved } = await seeder.query(
    `WITH old AS (SELECT seq, hash FROM audit_chain_head WHERE id = 1 FOR UPDATE)
     UPDATE audit_chain_head h
        SET seq = old.seq + $1::bigint,
            hash = encode(sha256(convert_to('bench-seed-' || (old.seq + $1::bigint), 'UTF8')), 'hex')
       FROM old WHERE h.id = 1
     RETURNING old.seq AS base, old.hash AS base_hash`,
    [settings.events],
  );
  return { base: Number(reserved[0].base), baseHash: reserved[0].base_hash };
}

/** Events `from`…`to` with their audit entries, and their detections; then fresh statistics. */
async function seedRange(orgs, audit, newest, from, to) {
  const events = eventsStatement(orgs);
  const detections = detectionsStatement(orgs);
  for (let start = from; start <= to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK - 1);
    await seeder.query(events, [newest, start, end, audit.base, settings.events, audit.baseHash]);
    log(`seeded events ${start}-${end} with their audit entries`);
  }
  const first = Math.floor((from - 1) / EVENTS_PER_DETECTION) + 1;
  const last = Math.floor(to / EVENTS_PER_DETECTION);
  for (let start = first; start <= last; start += CHUNK) {
    await seeder.query(detections, [newest, start, Math.min(last, start + CHUNK - 1)]);
  }
  log(`seeded detections ${first}-${last}; VACUUM (ANALYZE)`);
  // Fresh statistics and visibility maps, as a database that grew over time would have.
  await seeder.query('VACUUM (ANALYZE) events, audit_log, detections, tenants');
}

async function rowCounts(tenantId) {
  const { rows } = await seeder.query(
    `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM audit_log)::int AS audit_log,
            (SELECT count(*) FROM detections)::int AS detections, (SELECT count(*) FROM tenants)::int AS organizations,
            (SELECT count(*) FROM events WHERE tenant_id = $1)::int AS measured_events,
            (SELECT count(*) FROM events WHERE tenant_id = $1 AND actor_type = 'human' AND severity = 'warn')::int
              AS measured_events_matching,
            (SELECT count(*) FROM detections WHERE tenant_id = $1)::int AS measured_detections,
            (SELECT min(occurred_at) FROM events) AS oldest_event`,
    [tenantId],
  );
  return { ...rows[0], oldest_event: new Date(rows[0].oldest_event).toISOString() };
}

async function relationSizes() {
  const { rows } = await seeder.query(
    `SELECT c.relname AS name, round(pg_relation_size(c.oid) / 1048576.0, 1)::float AS mb
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')
        AND (c.relname IN ('events', 'audit_log', 'detections') OR c.relname IN (
          SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('events', 'audit_log', 'detections')))
      ORDER BY c.relname`,
    [schema],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.mb]));
}

// ---- The routes' SQL, captured from the Command Center's own services ----

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/** The Command Center's services (dist/) over `transactions`; the platform operator's organization is `platformId`. */
async function commandServices(transactions, platformId) {
  const [{ createEventsReader }, { createDetectionsService }, { createComplianceService }] = await Promise.all([
    dist('modules/command/events-service.js'),
    dist('modules/command/detections-service.js'),
    dist('modules/command/compliance-service.js'),
  ]);
  const deps = { transactions, clock: { now: () => new Date() }, isPlatformOperator: async (id) => id === platformId };
  return {
    events: createEventsReader(deps),
    detections: createDetectionsService(deps),
    compliance: createComplianceService(deps),
  };
}

/**
 * Runs each measured request's service once over a connection that logs every statement (no transaction around
 * them), and returns the statements by request: exactly what the route runs inside its transaction.
 */
async function captureStatements(principal, platformId, requests) {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  let captured = [];
  // Statements the service runs inside a read transaction (`transaction`: the timed SQL opens one as the kernel
  // does), outside any (tenantStatement: on a connection that already holds the role and organization), or
  // outside row-level security (systemRead: run and explained as the owner).
  const logged = (mark) =>
    drizzle(direct, { logger: { logQuery: (text, values) => captured.push({ text, values, ...mark }) } });
  const inTransaction = logged({ transaction: true });
  const held = logged({});
  const owned = logged({ owner: true });
  const services = await commandServices(
    {
      tenant: (_id, work) => work(inTransaction),
      tenantRead: (_id, work) => work(inTransaction),
      tenantStatement: (_id, work) => work(held),
      system: (work) => work(inTransaction),
      systemRead: (work) => work(owned),
    },
    platformId,
  );
  const out = {};
  for (const [name, request] of Object.entries(requests)) {
    captured = [];
    await request.service(services, request.principal ?? principal);
    out[name] = captured;
  }
  return out;
}

/**
 * The same services in this process over the kernel's own transactions (dist/kernel/db) on a pool of two
 * connections, with an auth-state barrier registered as the service registers one on PostgreSQL: each call is a
 * route without HTTP, the principal's resolution and the response's serialization.
 */
async function inProcessServices(platformId) {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { createTransactions } = await dist('kernel/db/transactions.js');
  const transactions = createTransactions(drizzle(inProcess), inProcessTenantSessions);
  transactions.onAuthStateCommit({
    channel: 'bench_command_barrier',
    open: () => ({ payload: 'unused', wait: async () => {}, abandon: () => {} }),
  });
  return commandServices(transactions, platformId);
}

// ---- Timing ----

const httpAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive connection: status, milliseconds to the last byte, bytes, and the body when asked. */
function timedGet(url, token, keepBody) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { agent: httpAgent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks = [];
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          ms: performance.now() - started,
          bytes,
          body: keepBody ? Buffer.concat(chunks).toString() : undefined,
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(60_000, () => request.destroy(new Error(`GET ${url}: no answer within 60 s`)));
  });
}

/**
 * The captured statements, one after the other, as the route runs them: milliseconds and rows of the first. With
 * `tenant` and statements the route runs in a read transaction, as that transaction runs them on PostgreSQL
 * (kernel/db/transactions.ts): first its opening message (`begin read only` and the two `set_config`, one
 * simple-query round trip), then the statements, timed to the last answer; the `commit` follows untimed, as the
 * route does not wait for it either. Otherwise the statements alone on a connection whose session already holds
 * the role and organization (the bare statements): how the events list runs them (transactions.tenantStatement).
 */
async function timedSql(statements, tenant) {
  const started = performance.now();
  let rows = 0;
  const opened = tenant && statements.some((statement) => statement.transaction);
  if (opened) {
    await direct.query(
      `begin read only; select set_config('role', 'svc_app', true), set_config('app.tenant_id', '${tenant}', true)`,
    );
  }
  for (const [i, { text, values, owner }] of statements.entries()) {
    const result = await (owner ? seeder : direct).query({ text, values, rowMode: 'array' });
    if (i === 0) rows = result.rowCount;
  }
  const ms = performance.now() - started;
  if (opened) await direct.query('commit');
  return { ms, rows };
}

function percentile(sorted, p) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function latency(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50_ms: round(percentile(sorted, 50), 3),
    p95_ms: round(percentile(sorted, 95), 3),
    max_ms: round(sorted[sorted.length - 1], 3),
  };
}

const SIDES = ['route', 'service', 'sql', 'sql_bare'];

/**
 * `warmup` unreported rounds, then `runs` rounds, sequentially, each of: the route over HTTP, the same service call
 * in this process (`call`), the route's SQL run directly as its read transaction runs it (`tenant`'s), and the
 * bare statements (timedSql); the order turns round by round.
 */
async function measureRounds({ url, token, statements, call, runs, warmup, tenant }) {
  const first = await timedGet(url, token, true);
  if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}: ${first.body}`);
  const samples = { route: [], service: [], sql: [], sql_bare: [] };
  let bytes = first.bytes;
  let sqlRows = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const taken = [];
    for (let s = 0; s < SIDES.length; s++) {
      const side = SIDES[(i + s) % SIDES.length];
      if (side === 'route') {
        const answer = await timedGet(url, token, false);
        if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
        bytes = answer.bytes;
        taken.push([side, answer.ms]);
      } else if (side === 'service') {
        const started = performance.now();
        await call();
        taken.push([side, performance.now() - started]);
      } else {
        const ran = await timedSql(statements, side === 'sql' ? tenant : undefined);
        sqlRows = ran.rows;
        taken.push([side, ran.ms]);
      }
    }
    if (i >= warmup) for (const [side, ms] of taken) samples[side].push(ms);
  }
  const route = latency(samples.route);
  const sql = latency(samples.sql);
  return {
    body: JSON.parse(first.body),
    figures: {
      runs,
      route: { ...route, bytes },
      service_in_process: latency(samples.service),
      sql: { ...sql, statements: statements.length, rows_of_first_statement: sqlRows },
      sql_bare: latency(samples.sql_bare),
      route_to_sql_p95: round(route.p95_ms / sql.p95_ms, 2),
      route_to_sql_p50: round(route.p50_ms / sql.p50_ms, 2),
      route_to_sql_bare_p95: round(
        route.p95_ms /
          percentile(
            [...samples.sql_bare].sort((a, b) => a - b),
            95,
          ),
        2,
      ),
    },
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement, on `client`: the direct connection sees the tables as the route's
 * role does (row-level security of the measured organization), the seeding one as a system transaction does.
 */
async function plans(statements, client = direct) {
  const out = [];
  for (const { text, values, owner } of statements) {
    const { rows } = await (owner ? seeder : client).query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${text}`, values });
    const plan = rows.map((row) => row['QUERY PLAN']);
    const joined = plan.join('\n');
    const indexes = [
      ...new Set(
        [...joined.matchAll(/(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g)].map(
          (m) => m[1],
        ),
      ),
    ];
    const seqScans = [...new Set([...joined.matchAll(/Seq Scan on (\S+)/g)].map((m) => m[1]))];
    out.push({
      sql: text.replace(/\s+/g, ' ').trim(),
      params: values,
      owner: Boolean(owner),
      indexes,
      seq_scans: seqScans,
      plan,
    });
  }
  return out;
}

// ---- The run ----

const EVENTS_FILTER = { actor_type: 'human', severity: 'warn', limit: 100 };
/** The measured organization's busiest person (the seed's person 0 of organization 1). */
const BUSIEST_PERSON = '00000001-0000-4000-a000-000000000000';

/**
 * Requests only explained, not timed: what the other indexes of migration 0026 are for. One person's trail in the
 * measured organization, and the platform operator's newest events across every organization (a system
 * transaction: explained on the owner's connection).
 */
function explainedOnly(platformId) {
  return {
    events_by_actor: { service: (s, principal) => s.events.list(principal, { actor_id: BUSIEST_PERSON, limit: 100 }) },
    platform_events: {
      principal: { tenantId: platformId, kind: 'user', permissions: [], isOwner: true },
      owner: true,
      service: (s, principal) => s.events.list(principal, { limit: 100 }),
    },
  };
}

/** The measured requests: the route, and the same request through the service (to capture its SQL). */
function requestsOf(base) {
  const api = `${base}/api/v1/command`;
  return {
    events_list: {
      url: `${api}/events?${new URLSearchParams(EVENTS_FILTER)}`,
      service: (s, principal) => s.events.list(principal, { ...EVENTS_FILTER }),
      count: (body) => body.events.length,
      target: true,
    },
    detections_summary: {
      url: `${api}/detections/summary`,
      service: (s, principal) => s.detections.summary(principal, {}),
      count: (body) => body.groups,
      target: true,
    },
    evidence_export: {
      url: `${api}/compliance/evidence?framework=soc2&export=true&days=${RECENT_DAYS}`,
      service: (s, principal) =>
        s.compliance.evidence(principal, { framework: 'soc2', export: true, days: RECENT_DAYS }),
      count: (body) => body.controls.reduce((sum, control) => sum + control.samples.length, 0),
      target: true,
    },
    evidence_export_90_days: {
      url: `${api}/compliance/evidence?framework=soc2&export=true`,
      service: (s, principal) => s.compliance.evidence(principal, { framework: 'soc2', export: true }),
      count: (body) => body.controls.reduce((sum, control) => sum + control.samples.length, 0),
      target: false,
    },
  };
}

/**
 * The measurements at one size. Before the first size's, the service and this script have served nothing yet:
 * their code paths are warmed up five times as long (FIRST_WARMUP) so that the first size is not measured cold.
 */
async function measureSize(org, orgs, size, first) {
  const pid = service.handle.child.pid;
  const login = await postJson(`${service.base}/api/v1/auth/login`, org.login, { 'x-forwarded-for': '198.18.7.7' });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  const token = login.json.access_token;
  const requests = requestsOf(service.base);
  const platformId = orgs.ids[ORGANIZATIONS - 1];
  const principal = { tenantId: org.tenantId, kind: 'user', permissions: [], isOwner: true };
  const statements = await captureStatements(principal, platformId, requests);
  const services = await inProcessServices(platformId);
  const out = { requests: {} };
  for (const [name, request] of Object.entries(requests)) {
    const runs = name === 'events_list' ? settings.eventsRuns : request.target ? settings.runs : settings.wideRuns;
    if (runs === 0 || (settings.only && !settings.only.includes(name))) continue;
    const foreignBefore = await quietBefore(settings, name, [pid]);
    const loadBefore = loadavg()[0];
    log(`${name} at ${size} events: ${runs} sequential rounds of the route, the service in process, its SQL`);
    const measured = await withCpu(pid, () =>
      measureRounds({
        url: request.url,
        token,
        statements: statements[name],
        call: () => request.service(services, principal),
        runs,
        warmup: request.target ? settings.warmupRuns * (first ? FIRST_WARMUP : 1) : 2,
        tenant: org.tenantId,
      }),
    );
    out.requests[name] = {
      url: request.url.slice(service.base.length),
      answered: request.count(measured.body),
      ...measured.figures,
      machine: { load_1min_before: round(loadBefore, 2), foreign_before: foreignBefore, cpu: measured.cpu },
    };
    log(
      `  p50 / p95 ms: route ${measured.figures.route.p50_ms} / ${measured.figures.route.p95_ms}, in process ` +
        `${measured.figures.service_in_process.p50_ms} / ${measured.figures.service_in_process.p95_ms}, SQL ` +
        `${measured.figures.sql.p50_ms} / ${measured.figures.sql.p95_ms}, bare SQL ` +
        `${measured.figures.sql_bare.p50_ms} / ${measured.figures.sql_bare.p95_ms}`,
    );
  }
  out.plans = {};
  for (const name of Object.keys(out.requests)) out.plans[name] = await plans(statements[name]);
  const explained = explainedOnly(platformId);
  const explainedStatements = await captureStatements(principal, platformId, explained);
  for (const [name, request] of Object.entries(explained)) {
    out.plans[name] = await plans(explainedStatements[name], request.owner ? seeder : direct);
  }
  return out;
}

async function main() {
  if (!databaseUrl) {
    log('skipped: the Command Center benchmark runs on PostgreSQL only; set DATABASE_URL to run it');
    await emitReport({
      benchmark: 'command',
      skipped: 'DATABASE_URL is unset: this benchmark runs on PostgreSQL only',
    });
    return;
  }
  const started = performance.now();
  service = await storage.start();
  const org = await signUpOrganization(service.base, `command-${runId}`);
  const orgs = organizations(org.tenantId);
  seeder = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await seeder.connect();
  // Seeding only: these rows need no durable commit one by one (the schema is dropped at the end).
  await seeder.query('SET synchronous_commit TO off');
  // The direct side: the route's statements, as the route's role with the organization's row-level security.
  direct = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await direct.connect();
  await direct.query(`SELECT set_config('role', 'svc_app', false), set_config('app.tenant_id', $1, false)`, [
    org.tenantId,
  ]);
  // A pool, as the service's is to the kernel's transactions (a read-only tenant transaction takes its PostgreSQL
  // path only over a pool); two connections, so a call need not wait for the previous call's commit.
  inProcess = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path=${schema}`, max: 2 });
  (await inProcess.connect()).release();
  // And a tenant-session pool, as the service's (kernel/db/database.ts), for transactions.tenantStatement.
  inProcessTenantSessions = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path=${schema}`, max: 2 });
  const audit = await seedOrganizations(orgs);
  const { rows: now } = await seeder.query('SELECT now() AS now');
  const newest = now[0].now;
  const sizes = [];
  let seeded = 0;
  for (const size of [settings.first, settings.events]) {
    const seedStarted = performance.now();
    await seedRange(orgs, audit, newest, seeded + 1, size);
    seeded = size;
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    const rows = await rowCounts(org.tenantId);
    log(`${rows.events} events (${rows.measured_events} of the measured organization) seeded in ${seedSeconds} s`);
    sizes.push({ events: size, seed_seconds: seedSeconds, rows, relation_mb: await relationSizes() });
    Object.assign(sizes[sizes.length - 1], await measureSize(org, orgs, size, sizes.length === 1));
  }
  await stopChild(service.handle);

  const [small] = sizes;
  const large = sizes[sizes.length - 1];
  const history = {};
  const versusSql = {};
  for (const [name, figures] of Object.entries(large.requests)) {
    const before = small.requests[name];
    if (!before) continue;
    const ratio = before.route.p95_ms > 0 ? figures.route.p95_ms / before.route.p95_ms : null;
    const target = requestsOf('')[name].target;
    history[name] = {
      p95_ratio: round(ratio, 2),
      p50_ratio: round(figures.route.p50_ms / before.route.p50_ms, 2),
      target: target ? HISTORY_TARGET : null,
      met: target ? ratio !== null && ratio <= HISTORY_TARGET : null,
    };
  }
  for (const size of sizes) {
    const figures = size.requests.events_list;
    if (!figures) continue;
    versusSql[size.events] = {
      route_to_sql_p95: figures.route_to_sql_p95,
      route_to_sql_bare_p95: figures.route_to_sql_bare_p95,
      target: SQL_TARGET,
      met: figures.route_to_sql_p95 <= SQL_TARGET,
    };
  }
  await emitReport({
    benchmark: 'command',
    database: 'postgresql',
    redis: storage.redis,
    node: process.version,
    cpus: cpus().length,
    organizations: ORGANIZATIONS,
    measured_organization_share: round(orgs.share, 3),
    recent_days: RECENT_DAYS,
    runs: settings.runs,
    events_runs: settings.eventsRuns,
    warmup_runs: settings.warmupRuns,
    first_size_warmup_runs: settings.warmupRuns * FIRST_WARMUP,
    wide_runs: settings.wideRuns,
    total_seconds: round((performance.now() - started) / 1000, 1),
    targets: {
      largest_vs_first_p95: history,
      events_list_route_vs_sql: versusSql,
    },
    sizes,
  });
  const missed = [
    ...Object.entries(history)
      .filter(([, r]) => r.met === false)
      .map(([name, r]) => `${name} ${r.p95_ratio}x of its p95 at ${small.events}`),
    ...Object.entries(versusSql)
      .filter(([, r]) => !r.met)
      .map(([events, r]) => `events list ${r.route_to_sql_p95}x its SQL at ${events}`),
  ];
  log(missed.length ? `targets missed: ${missed.join('; ')}` : 'every target met');
  if (process.env.BENCH_STRICT === '1' && missed.length) process.exitCode = 1;
}

async function cleanup() {
  await stopAllChildren();
  httpAgent.destroy();
  for (const client of [seeder, direct, inProcess, inProcessTenantSessions]) await client?.end().catch(() => {});
  seeder = undefined;
  direct = undefined;
  inProcess = undefined;
  inProcessTenantSessions = undefined;
  await storage.remove(); // every seeded row with it
}

runBench(async () => {
  await main();
  await cleanup();
}, cleanup);

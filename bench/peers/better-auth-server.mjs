// better-auth as a peer of the service (bench/peers.mjs, docs/benchmarks.md): its PostgreSQL adapter (Kysely on
// a pg Pool, the setup of its docs) and email-and-password sign-in. Passwords are hashed with argon2id and the
// service's parameters (m=19456 KiB, t=2, p=1, @node-rs/argon2, as src/kernel/crypto/passwords.ts) through
// better-auth's `emailAndPassword.password.hash/verify` hooks, so a sign-in costs both the same hash. Everything
// else is better-auth's default: sessions in the database, read from it on every request (no cookie cache).
// Started as a child process; it creates its tables (better-auth's own migrations) in its own schema first.
//
// env: PORT, DATABASE_URL, BETTER_AUTH_SCHEMA, BETTER_AUTH_SECRET, DATABASE_POOL_SIZE (default 20, the
// service's default pool size).
import { createServer } from 'node:http';
import { hash, verify } from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import pg from 'pg';

const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const port = Number(process.env.PORT);
const schema = process.env.BETTER_AUTH_SCHEMA;
if (!/^[a-z0-9_]+$/.test(schema ?? '')) throw new Error('BETTER_AUTH_SCHEMA: a lower-case SQL identifier');

const setup = new pg.Client({ connectionString: process.env.DATABASE_URL });
await setup.connect();
await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
await setup.end();

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  options: `-c search_path=${schema}`,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
});

const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: process.env.BETTER_AUTH_SECRET,
  database: pool,
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password) => hash(password, ARGON2ID),
      verify: ({ hash: encoded, password }) => verify(encoded, password),
    },
  },
  // The service's limits are negotiated up for its loads (or do not apply to them); better-auth's are off.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { level: 'error' },
});

const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const handler = toNodeHandler(auth);
const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.end('ok');
    return;
  }
  handler(req, res);
});
// Requests still queued behind argon2 when a load stops would find an ended pool: exit without ending it.
const close = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');

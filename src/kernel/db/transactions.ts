import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { APP_ROLE, type Db, type Queryable, rows, type Tx } from './database.js';

type Hook = () => void | Promise<void>;
const afterCommitHooks = new WeakMap<Tx, Hook[]>();
const enteredTenants = new WeakMap<Tx, Set<string>>();

/**
 * Runs `hook` once the transaction `tx` has committed (live-stream fan-out, worker wake-ups). Nothing is
 * published before commit, and nothing at all when the transaction rolls back.
 */
export function afterCommit(tx: Tx, hook: Hook): void {
  const hooks = afterCommitHooks.get(tx);
  if (!hooks) throw new Error('afterCommit needs a transaction opened by the kernel');
  hooks.push(hook);
}

export interface Transactions {
  /**
   * A transaction held to one tenant: it runs as the non-owner role with `app.tenant_id` set (SET LOCAL),
   * so the restrictive row-level-security policy admits only that tenant's rows.
   */
  tenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * `tenant` for reads only: the transaction is read-only (PostgreSQL refuses any write in it), so it cannot change
   * auth state: no barrier check and no commit listeners. For read planes (the Command Center). On PostgreSQL it
   * costs two round trips before its answer (the opening statements as one message, then the reads; the commit
   * is not waited for), four on the embedded database.
   */
  tenantRead<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Reads of one organization outside any transaction, each statement its own snapshot: for a read plane's hot
   * list whose statements name their organization themselves (the Command Center's events list). Row-level
   * security stays the second guard: on PostgreSQL they run on a connection of the tenant-session pool
   * (`Database.tenantSessions`), whose session holds the application role, read-only and the organization it
   * last served, so a read costs its statement's round trip (one more when the connection last served another
   * organization). Elsewhere, and without that pool, it is `tenantRead`.
   */
  tenantStatement<T>(tenantId: string, work: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * A transaction without a tenant: registry look-ups (organization by slug, a token by its hash) and
   * platform-operator reads. Every use is explicit in a service and says why.
   */
  system<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Holds an open system transaction to one tenant from here on (after a system look-up found it). */
  enterTenant(tx: Tx, tenantId: string): Promise<void>;
  /**
   * One read statement outside any transaction, without a tenant: for hot paths whose query names its
   * tenant itself (principal resolution reads a session by tenant and id on every request).
   */
  systemRead<T>(work: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * One writing statement outside any transaction, without a tenant (atomic by itself): for hot paths that
   * do all their work in a single statement naming its tenant (refresh rotation). Never more than one.
   */
  systemWrite<T>(work: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Called after every commit with the organizations the transaction was held to (empty for a system
   * transaction that never entered one): local caches of tenant state drop what the commit may have changed.
   */
  onCommit(listener: (tenantIds: ReadonlySet<string>) => void): void;
  /**
   * A transaction that changed auth state (the triggers of migrations 0001 and 0014 mark it, migration 0019)
   * also notifies a barrier marker before it commits, and waits for the barrier after it, before its caller
   * goes on: a revocation is answered only once every node has heard of it (docs/decisions.md, "Revocation
   * across nodes"). Without a registered barrier nothing is read.
   */
  onAuthStateCommit(barrier: AuthStateBarrier): void;
}

/** How a transaction that changed auth state makes sure every node heard of it (kernel/auth/state-cache.ts). */
export interface AuthStateBarrier {
  channel: string;
  open(): OpenedBarrier;
}

export interface OpenedBarrier {
  /** What to notify on the channel, inside the transaction. */
  payload: string;
  /** After the commit: resolves once every node heard it, or after a bound; never fails. */
  wait(): Promise<void>;
  /** The transaction changed no auth state or did not commit. */
  abandon(): void;
}

/** A tenant id as it may be written into a statement's text: a UUID, nothing else (every tenant id is one). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a read transaction on a node-postgres pool needs of Drizzle's database: its pool, dialect and options. */
interface PoolSession {
  client: pg.Pool;
  dialect: unknown;
  schema: unknown;
  options: unknown;
}

/** Drizzle's session over a node-postgres pool (PostgreSQL); undefined for the embedded database. */
function poolSessionOf(db: Db): PoolSession | undefined {
  const session = (db as unknown as { session?: Partial<PoolSession> }).session;
  return session?.client instanceof pg.Pool ? (session as PoolSession) : undefined;
}

/** The organization each connection of the tenant-session pool holds in its session (absent: none yet). */
const heldTenant = new WeakMap<pg.PoolClient, string>();

/** A Drizzle handle over one checked-out connection, with the pool session's dialect and options. */
function queryableOn(session: PoolSession, client: pg.PoolClient): Tx {
  const nodeSession = new NodePgSession(
    client,
    session.dialect as never,
    session.schema as never,
    session.options as never,
  );
  return new NodePgTransaction(session.dialect as never, nodeSession, session.schema as never) as unknown as Tx;
}

/**
 * `tenantStatement` on PostgreSQL: a connection of the tenant-session pool that holds the organization already
 * runs the work at once. Otherwise one message first makes its session hold it (on a new connection also the
 * application role and read-only for every transaction; the tenant id, a checked UUID, is written into the text:
 * the simple protocol takes no parameters). The held organization is forgotten before that message and recorded
 * only once it succeeded, so a connection never runs work under an organization it was not confirmed to hold.
 */
async function statementOnPool<T>(
  session: PoolSession,
  pool: pg.Pool,
  tenantId: string,
  work: (q: Queryable) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    const held = heldTenant.get(client);
    if (held !== tenantId) {
      heldTenant.delete(client);
      const opening = held === undefined ? `set role ${APP_ROLE}; set default_transaction_read_only = on; ` : '';
      await client.query(`${opening}select set_config('app.tenant_id', '${tenantId}', false)`);
      heldTenant.set(client, tenantId);
    }
    return await work(queryableOn(session, client));
  } finally {
    client.release();
  }
}

export function createTransactions(db: Db, tenantSessions?: pg.Pool): Transactions {
  const commitListeners: Array<(tenantIds: ReadonlySet<string>) => void> = [];
  let authStateBarrier: AuthStateBarrier | undefined;
  const poolSession = poolSessionOf(db);

  /**
   * `tenantRead` on PostgreSQL in two round trips instead of four, for the read planes' hot paths (the Command
   * Center's events list costs its SQL plus these): `begin read only` and the two `set_config` go as one
   * simple-query message (the tenant id, a checked UUID, and the role are written into its text: the simple
   * protocol takes no parameters), then the reads, and the `commit` is sent without the caller waiting for it.
   * A read-only transaction has nothing to make durable: what it read is its answer whether or not the commit
   * comes back, and the connection returns to the pool only once it has (a failed one is discarded). Semantics
   * are `run(work, tenantId, true)`'s: role, organization and read-only for the whole transaction, savepoints for
   * nested transactions, afterCommit hooks after the commit (awaited then), no commit listeners (nothing changed).
   */
  async function readOnPool<T>(session: PoolSession, tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await session.client.connect();
    const end = (statement: 'commit' | 'rollback') =>
      client.query(statement).then(
        () => client.release(),
        (error: Error) => {
          client.release(error);
          throw error;
        },
      );
    const hooks: Hook[] = [];
    let value: T;
    try {
      await client.query(
        `begin read only; select set_config('role', '${APP_ROLE}', true), set_config('app.tenant_id', '${tenantId}', true)`,
      );
      const tx = queryableOn(session, client);
      afterCommitHooks.set(tx, hooks);
      enteredTenants.set(tx, new Set([tenantId]));
      value = await work(tx);
    } catch (error) {
      end('rollback').catch(() => undefined);
      throw error;
    }
    const committed = end('commit');
    if (hooks.length === 0) {
      committed.catch(() => undefined);
      return value;
    }
    await committed;
    await runHooks(hooks);
    return value;
  }

  async function run<T>(work: (tx: Tx) => Promise<T>, tenantId?: string, readOnly = false): Promise<T> {
    if (readOnly && tenantId && poolSession && UUID.test(tenantId)) return readOnPool(poolSession, tenantId, work);
    const hooks: Hook[] = [];
    const tenants = new Set<string>();
    let barrier: OpenedBarrier | undefined;
    let changedAuthState = false;
    let result: T;
    try {
      result = await db.transaction(async (tx) => {
        afterCommitHooks.set(tx as Tx, hooks);
        enteredTenants.set(tx as Tx, tenants);
        if (readOnly && tenantId) await enterTenantReadOnly(tx as Tx, tenantId);
        else if (tenantId) await enterTenant(tx as Tx, tenantId);
        const value = await work(tx as Tx);
        if (authStateBarrier && !readOnly) {
          barrier = authStateBarrier.open();
          changedAuthState = await notifyBarrierIfChanged(tx as Tx, authStateBarrier.channel, barrier.payload);
        }
        return value;
      });
    } catch (error) {
      barrier?.abandon();
      throw error;
    }
    // A read-only transaction changed nothing: local caches keep what they hold (dropping the organization's
    // session entries on every read made the next request of the organization read its session again).
    if (!readOnly) for (const listener of commitListeners) listener(tenants);
    if (changedAuthState) await barrier?.wait();
    else barrier?.abandon();
    await runHooks(hooks);
    return result;
  }
  async function enterTenant(tx: Tx, tenantId: string): Promise<void> {
    enteredTenants.get(tx)?.add(tenantId);
    await tx.execute(sql`select set_config('role', ${APP_ROLE}, true), set_config('app.tenant_id', ${tenantId}, true)`);
  }
  /** `enterTenant` and read-only in one statement (the function form of `SET TRANSACTION READ ONLY`). */
  async function enterTenantReadOnly(tx: Tx, tenantId: string): Promise<void> {
    enteredTenants.get(tx)?.add(tenantId);
    await tx.execute(
      sql`select set_config('role', ${APP_ROLE}, true), set_config('app.tenant_id', ${tenantId}, true),
          set_config('transaction_read_only', 'on', true)`,
    );
  }
  return {
    tenant: (tenantId, work) => run(work, tenantId),
    tenantRead: (tenantId, work) => run(work, tenantId, true),
    tenantStatement: (tenantId, work) =>
      poolSession && tenantSessions && UUID.test(tenantId)
        ? statementOnPool(poolSession, tenantSessions, tenantId, work)
        : run(work, tenantId, true),
    system: (work) => run(work),
    enterTenant,
    systemRead: (work) => work(db),
    systemWrite: (work) => work(db),
    onAuthStateCommit: (barrier) => {
      authStateBarrier = barrier;
    },
    onCommit: (listener) => {
      commitListeners.push(listener);
    },
  };
}

async function runHooks(hooks: Hook[]): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook();
    } catch {
      // A failed fan-out never undoes a committed change; the event is stored and can be read again.
    }
  }
}

/**
 * One statement: whether an auth-state trigger fired in this transaction (the transaction-local setting of
 * migration 0019) and, if one did, the barrier marker, notified after the triggers' own notifications.
 */
async function notifyBarrierIfChanged(tx: Tx, channel: string, payload: string): Promise<boolean> {
  const [row] = await rows<{ changed: boolean }>(
    tx,
    sql`select changed, case when changed then pg_notify(${channel}, ${payload}) end as notified
        from (select current_setting('svc.auth_state_changed', true) is not distinct from 'on' as changed) flag`,
  );
  return row?.changed === true;
}

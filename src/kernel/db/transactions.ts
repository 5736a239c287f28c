import { sql } from 'drizzle-orm';
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
   * auth state and skips the barrier check, one statement fewer than `tenant`. For read planes (the Command Center).
   */
  tenantRead<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
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

export function createTransactions(db: Db): Transactions {
  const commitListeners: Array<(tenantIds: ReadonlySet<string>) => void> = [];
  let authStateBarrier: AuthStateBarrier | undefined;
  async function run<T>(work: (tx: Tx) => Promise<T>, tenantId?: string, readOnly = false): Promise<T> {
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
    for (const listener of commitListeners) listener(tenants);
    if (changedAuthState) await barrier?.wait();
    else barrier?.abandon();
    for (const hook of hooks) {
      try {
        await hook();
      } catch {
        // A failed fan-out never undoes a committed change; the event is stored and can be read again.
      }
    }
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

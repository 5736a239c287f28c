export {
  APP_ROLE,
  type Database,
  type Db,
  openDatabase,
  preparedRows,
  type Queryable,
  rows,
  type Tx,
} from './database.js';
export { migrate, pendingMigrations } from './migrate.js';
export { spendOnce, takeOnce } from './spend.js';
export {
  type AuthStateBarrier,
  afterCommit,
  createTransactions,
  type OpenedBarrier,
  type Transactions,
} from './transactions.js';
export { DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, databaseUnavailableReason } from './unavailable.js';

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
export { migrate } from './migrate.js';
export { spendOnce, takeOnce } from './spend.js';
export {
  type AuthStateBarrier,
  afterCommit,
  createTransactions,
  type OpenedBarrier,
  type Transactions,
} from './transactions.js';

import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { databaseUnavailableReason } from './unavailable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('databaseUnavailableReason', () => {
  it('names a lost or refused connection, also under the error Drizzle wraps it in', () => {
    expect(databaseUnavailableReason(withCode('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(databaseUnavailableReason(new DrizzleQueryError('select 1', [], withCode('ECONNRESET')))).toBe('ECONNRESET');
    expect(databaseUnavailableReason(new Error('Connection terminated unexpectedly'))).toBe('Connection terminated');
    expect(databaseUnavailableReason(new Error('timeout exceeded when trying to connect'))).toBe(
      'timeout exceeded when trying to connect',
    );
    // SQLSTATE 57P01 admin_shutdown, 08006 connection_failure.
    expect(databaseUnavailableReason(withCode('57P01', 'terminating connection due to administrator command'))).toBe(
      '57P01',
    );
    expect(databaseUnavailableReason(withCode('08006'))).toBe('08006');
  });

  it('leaves failures of the statement itself alone, and never echoes the statement or its parameters', () => {
    expect(databaseUnavailableReason(withCode('23505', 'duplicate key value'))).toBeUndefined();
    expect(
      databaseUnavailableReason(new DrizzleQueryError('select $1', ['secret'], withCode('42P01'))),
    ).toBeUndefined();
    expect(databaseUnavailableReason(new Error('boom'))).toBeUndefined();
    expect(databaseUnavailableReason(undefined)).toBeUndefined();
    const reason = databaseUnavailableReason(new DrizzleQueryError('select $1', ['secret'], withCode('EPIPE')));
    expect(reason).toBe('EPIPE');
  });
});

/**
 * Seconds a client is told to wait (`Retry-After`, RFC 9110 section 10.2.3) when the database cannot be reached.
 * Fixed: nothing tells how long an outage lasts, and the pool reconnects by itself on the next request.
 */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection to the database that failed or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE codes of a server that is going away or not accepting connections (PostgreSQL appendix A): class 08
 * "connection exception", and `admin_shutdown`, `crash_shutdown`, `cannot_connect_now`.
 */
const SERVER_GONE = /^(08...|57P01|57P02|57P03)$/;

/** What node-postgres and its pool say when a connection is lost, or cannot be had in time. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * Why `error` (or an error it wraps: Drizzle wraps the driver's error as `cause`) means the database could not
 * be reached, rather than that a statement failed: the socket error or SQLSTATE code, or the driver's message;
 * undefined for any other error. Such a request is answered 503 with `Retry-After`: its transaction did not
 * commit (a lost connection rolls it back) and the same request may succeed later. The reason never carries the
 * statement or its parameters (Drizzle's own message does), so it may be logged.
 */
export function databaseUnavailableReason(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.test(code))) return code;
    const known = typeof message === 'string' && DRIVER_MESSAGES.find((prefix) => message.startsWith(prefix));
    if (known) return known;
    current = cause;
  }
  return undefined;
}

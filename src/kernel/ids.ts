import { randomFillSync } from 'node:crypto';

// Random bits come from a pool refilled 256 identifiers at a time, as Node's own `randomUUID` does: one
// `randomBytes(16)` per identifier was a system call per request (the request id), a tenth of a light request's CPU.
const POOL_IDS = 256;
const pool = Buffer.allocUnsafe(16 * POOL_IDS);
let taken = POOL_IDS;

function randomSixteen(): Buffer {
  if (taken === POOL_IDS) {
    randomFillSync(pool);
    taken = 0;
  }
  const start = 16 * taken++;
  return pool.subarray(start, start + 16);
}

/**
 * UUIDv7 (RFC 9562 section 5.7): 48-bit Unix milliseconds, then random bits. Identifiers sort by
 * creation time, which keeps B-tree inserts local. Wall time is right here: an id is not a clock reading
 * that any rule compares against.
 */
export function newId(): string {
  // A view into the pool, used up here: its bytes are never handed out again.
  const bytes = randomSixteen();
  const ms = Math.floor(performance.timeOrigin + performance.now());
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

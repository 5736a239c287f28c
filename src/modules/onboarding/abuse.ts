import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { LimitPolicy } from '../../kernel/limits/index.js';

// Abuse controls of the bootstrap (Part B 4.5, 8): fail-closed budgets per source IP, per network and overall,
// poll and proof-of-work minting sharing one budget, and a proof of work once the caller's budgets are half spent.

export const BOOTSTRAP_PER_IP: LimitPolicy = { name: 'onboard-bootstrap-ip', points: 10, durationSeconds: 3600 };
export const BOOTSTRAP_PER_NETWORK: LimitPolicy = { name: 'onboard-bootstrap-net', points: 30, durationSeconds: 3600 };
export const BOOTSTRAP_GLOBAL: LimitPolicy = { name: 'onboard-bootstrap-all', points: 1000, durationSeconds: 3600 };
/** `POST /onboard/poll` and `POST /onboard/pow` together, per source IP. */
export const POLL_AND_POW_PER_IP: LimitPolicy = { name: 'onboard-poll-ip', points: 120, durationSeconds: 60 };
/** Entering a user code on the hosted page, per source IP (user codes are short: this bounds guessing). */
export const CODE_ENTRY_PER_IP: LimitPolicy = { name: 'onboard-code-ip', points: 20, durationSeconds: 3600 };

/** Leading zero bits a solution needs: about 2^18 SHA-256 computations, a fraction of a second for one agent. */
export const POW_BITS = 18;
export const POW_TTL_SECONDS = 600;

/** The network an address belongs to: its /24 (IPv4, also when IPv4-mapped) or its /48 (IPv6). */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    const [head = '', tail = ''] = address.toLowerCase().split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = address.includes('::')
      ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
      : left;
    return `${groups
      .slice(0, 3)
      .map((group) => Number.parseInt(group || '0', 16).toString(16))
      .join(':')}::/48`;
  }
  return address;
}

/** Whether SHA-256(`challenge.nonce`) starts with `bits` zero bits. */
export function solvesPow(challenge: string, nonce: string, bits: number): boolean {
  const digest = createHash('sha256').update(`${challenge}.${nonce}`).digest();
  let remaining = bits;
  for (const byte of digest) {
    if (remaining <= 0) return true;
    if (remaining >= 8) {
      if (byte !== 0) return false;
      remaining -= 8;
    } else {
      return byte >> (8 - remaining) === 0;
    }
  }
  return remaining <= 0;
}

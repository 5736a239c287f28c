import { randomInt } from 'node:crypto';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';

// The device flow's two codes (RFC 8628 6.1): a long device code the agent keeps, and a short user code a person
// types. Both are stored only as SHA-256.

/** RFC 8628 6.1: consonants only (no vowels, so no words; no look-alikes), eight of them, about 2^34. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The user code as typed: case, spaces and dashes do not matter; undefined when it cannot be one. */
export function normalizeUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== 8 || [...letters].some((c) => !ALPHABET.includes(c))) return undefined;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export const newDeviceCode = () => `odc_${randomSecret()}`;
export const hashCode = (value: string) => sha256Hex(value);

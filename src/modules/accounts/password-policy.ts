import { readFileSync } from 'node:fs';
import { badRequest } from '../../kernel/http/index.js';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

let common: ReadonlySet<string> | undefined;

/** Well-known passwords of policy length, from data/common-passwords.txt (see data/README.md). */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(new URL('../../../data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean),
  );
  return common;
}

/** Part A 2.4: 12 to 128 characters and not a well-known password; no character-class rules. */
export function passwordWeakness(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  if (commonPasswords().has(password.toLowerCase())) return 'Password is too common; choose another';
  return null;
}

/** 400 naming the rule when the password breaks the policy. */
export function assertStrongPassword(password: string): void {
  const weakness = passwordWeakness(password);
  if (weakness) throw badRequest(weakness);
}

import { createRequire } from 'node:module';
import { badRequest } from '../../kernel/http/index.js';
import type { Dns } from '../../kernel/net/index.js';

// Part B 4.5: disposable email domains and domains without a mail exchanger are refused. The same list (the
// `disposable-email-domains` package) and the same MX rule as early access (src/modules/early-access/domains.ts,
// which its index does not export; see docs/onboarding.md), through the kernel's resolver (DNS_SERVERS).

const require = createRequire(import.meta.url);
let lists: { exact: ReadonlySet<string>; wildcard: ReadonlySet<string> } | undefined;

function isDisposable(domain: string): boolean {
  lists ??= {
    exact: new Set(require('disposable-email-domains') as string[]),
    wildcard: new Set(require('disposable-email-domains/wildcard.json') as string[]),
  };
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join('.');
    if (lists.exact.has(parent) || lists.wildcard.has(parent)) return true;
  }
  return false;
}

/** A usable exchanger; a null MX (RFC 7505, exchange ".") or a failed look-up counts as none (fail closed). */
async function acceptsMail(dns: Dns, domain: string): Promise<boolean> {
  try {
    return (await dns.resolveMx(domain)).some((record) => record.exchange !== '' && record.exchange !== '.');
  } catch {
    return false;
  }
}

export async function assertMailableDomain(dns: Dns, email: string): Promise<void> {
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  if (isDisposable(domain)) throw badRequest('Disposable email addresses are not accepted');
  if (!(await acceptsMail(dns, domain))) throw badRequest('The email domain does not accept mail (no MX record)');
}

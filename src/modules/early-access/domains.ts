import { createRequire } from 'node:module';
import { badRequest } from '../../kernel/http/index.js';
import type { Dns } from '../../kernel/net/index.js';

const require = createRequire(import.meta.url);

let disposable: { exact: ReadonlySet<string>; wildcard: ReadonlySet<string> } | undefined;

/** The maintained list of the `disposable-email-domains` package: exact domains, and domains whose subdomains count. */
function lists() {
  disposable ??= {
    exact: new Set(require('disposable-email-domains') as string[]),
    wildcard: new Set(require('disposable-email-domains/wildcard.json') as string[]),
  };
  return disposable;
}

/** True when the domain, or a parent of it on the wildcard list, is a known disposable-mail provider. */
export function isDisposableDomain(domain: string): boolean {
  const { exact, wildcard } = lists();
  const name = domain.toLowerCase().replace(/\.$/, '');
  if (exact.has(name)) return true;
  const labels = name.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join('.');
    if (wildcard.has(parent) || (i > 0 && exact.has(parent))) return true;
  }
  return false;
}

/**
 * True when the domain publishes a usable mail exchanger. A null MX (RFC 7505: one record with exchange ".")
 * says the domain accepts no mail; a look-up failure counts as no exchanger (fail closed).
 */
export async function acceptsMail(dns: Dns, domain: string): Promise<boolean> {
  try {
    const records = await dns.resolveMx(domain);
    return records.some((record) => record.exchange !== '' && record.exchange !== '.');
  } catch {
    return false;
  }
}

/**
 * The one rule for an address someone asks us to mail (early access, Part A 4.12; onboarding, Part B 4.5):
 * 400 for a disposable-mail domain, 400 for a domain that publishes no usable mail exchanger.
 */
export async function assertMailableEmail(dns: Dns, email: string): Promise<void> {
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  if (isDisposableDomain(domain)) throw badRequest('Disposable email addresses are not accepted; use a work address');
  if (!(await acceptsMail(dns, domain))) throw badRequest('The email domain does not accept mail (no MX record)');
}

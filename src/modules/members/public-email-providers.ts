/**
 * Mailbox providers open to the public (Part A 4.7: such a domain cannot be claimed, since anyone can hold an
 * address there). A claim of the provider itself or of any name under it is refused.
 */
export const PUBLIC_EMAIL_PROVIDERS: ReadonlySet<string> = new Set([
  '126.com',
  '163.com',
  'aol.com',
  'att.net',
  'comcast.net',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.co.uk',
  'hotmail.com',
  'hotmail.fr',
  'icloud.com',
  'laposte.net',
  'libero.it',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'naver.com',
  'orange.fr',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'rambler.ru',
  'rediffmail.com',
  'sbcglobal.net',
  't-online.de',
  'tuta.io',
  'tutanota.com',
  'verizon.net',
  'web.de',
  'yahoo.co.jp',
  'yahoo.co.uk',
  'yahoo.com',
  'yahoo.fr',
  'yandex.com',
  'yandex.ru',
  'ymail.com',
  'zoho.com',
]);

export function isPublicEmailProvider(domain: string): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (PUBLIC_EMAIL_PROVIDERS.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

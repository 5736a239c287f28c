/**
 * Identifiers as typed or asserted, reduced once to the form accounts and organizations are keyed (and throttled)
 * on (issue 17 item 2). An address's domain in its root form (`example.com.`, RFC 1034 3.1) is the same domain, so
 * `person@example.com.` is `person@example.com`, never a look-alike account of its own.
 */
export const emailKeyOf = (email: string) => email.trim().toLowerCase().replace(/\.+$/, '');
/** Organization slugs are stored lowercase; a typed one is compared (and throttled) trimmed and lowercased. */
export const slugKeyOf = (slug: string) => slug.trim().toLowerCase();

/**
 * The URI rules of client registration (Part A 4.14) and of resource identifiers (RFC 8707 section 2). Each
 * check answers why a value is refused, or null; the caller names the field. Values are stored exactly as
 * given, because the authorize and end-session endpoints compare them character for character.
 */

export const MAX_URI_LENGTH = 2000;

/** Part A 4.14: plain http only towards the user's own machine (RFC 8252 section 7.3). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** RFC 3986 section 2: unreserved, reserved and `%`; no spaces, controls or non-ASCII characters. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
/** RFC 3986 section 3.1. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** http(s) names an authority (RFC 9110 section 4.2): `https:example.com` or `https:///x` are not accepted. */
const WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+/;

/** The parsed URL when `raw` is an absolute URI (RFC 3986 section 4.3), else null. */
function absoluteUri(raw: string): URL | null {
  if (!URI_CHARACTERS.test(raw) || !SCHEME.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !WITH_AUTHORITY.test(raw)) return null;
  return url;
}

/**
 * A redirect URI (or post-logout redirect URI) of Part A 4.14: an absolute URI without fragment or wildcard;
 * `https`; `http` only on a loopback host; or a private-use scheme in reverse-domain form such as
 * `com.example.app:/callback` (RFC 8252 section 7.1), which also keeps out `javascript:`, `data:` and `file:`.
 */
export function redirectUriRefusal(raw: string): string | null {
  if (raw.length === 0) return 'must not be empty';
  if (raw.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  // Checked on the raw text: an empty fragment (`…/cb#`) parses to no fragment at all (RFC 6749 section 3.1.2).
  if (raw.includes('#')) return 'must not contain a fragment (#)';
  if (raw.includes('*')) return 'must not contain a wildcard (*): register every URI exactly';
  const url = absoluteUri(raw);
  if (!url) return 'must be an absolute URI';
  if (url.username || url.password) return 'must not carry credentials';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return null;
  if (scheme === 'http') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'http is allowed only on loopback hosts (localhost, 127.0.0.1, [::1]); use https';
  }
  if (scheme.includes('.')) return null;
  return (
    `scheme "${scheme}" is not allowed: use https, http on a loopback host, or a private-use scheme in ` +
    'reverse-domain form such as com.example.app (RFC 8252 section 7.1)'
  );
}

/** RFC 8707 section 2: a resource identifier is an absolute URI without a fragment. */
export function resourceIdentifierRefusal(raw: string): string | null {
  if (raw.length === 0) return 'must not be empty';
  if (raw.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  if (raw.includes('#')) return 'must not contain a fragment (RFC 8707 section 2)';
  if (!absoluteUri(raw)) return 'must be an absolute URI (RFC 8707 section 2)';
  return null;
}

import { isIP } from 'node:net';
import { webhookEventTypes } from '../../kernel/events/index.js';
import { badRequest, unprocessable } from '../../kernel/http/index.js';
import { hostNameRefusalReason } from '../../kernel/net/index.js';

export const MAX_ENDPOINTS_PER_ORGANIZATION = 25;

/**
 * Part A 4.11 registration rules, each refused naming the rule: https, port 443, a fully-qualified public host
 * name (no IP literal, no single-label or local-only name), no credentials. Where the name resolves is
 * checked at every delivery by the egress client, not here (DNS can change after registration).
 */
export function assertEndpointUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable('url: must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw unprocessable('url: must use https');
  if (url.username || url.password) throw unprocessable('url: must not carry credentials');
  // The WHATWG parser drops the scheme's default port, so an explicit :443 reads as no port.
  if (url.port !== '') throw unprocessable('url: port must be 443');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) throw unprocessable('url: host must be a name, not an IP address');
  const reason = hostNameRefusalReason(host.replace(/\.$/, ''));
  if (reason) throw unprocessable(`url: host must be a fully-qualified public host name (${reason})`);
  if (url.hash) throw unprocessable('url: must not carry a fragment');
  return url.toString();
}

/** Unknown event types are a 400 (Part A 7); duplicates are dropped. */
export function assertEventTypes(types: readonly string[]): string[] {
  const known = new Set(webhookEventTypes().map((type) => type.name));
  const unknown = types.find((type) => !known.has(type));
  if (unknown) throw badRequest(`Unknown event type: ${unknown}`);
  return [...new Set(types)];
}

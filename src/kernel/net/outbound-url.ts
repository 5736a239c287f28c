import { isIP } from 'node:net';
import { unprocessable } from '../http/index.js';
import { hostNameRefusalReason } from './address-policy.js';

/**
 * The rule for a URL a tenant registers for the service to POST to (webhook endpoints, Part A 4.11; OAuth
 * back-channel logout URIs, 4.14), each refusal naming `field`: https, port 443, a fully-qualified public host
 * name (no IP literal, no single-label or local-only name), no credentials, no fragment. Where the name
 * resolves is checked at every request by the egress client, not here (DNS can change after registration).
 */
export function assertOutboundUrl(raw: string, field = 'url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable(`${field}: must be an absolute URL`);
  }
  if (url.protocol !== 'https:') throw unprocessable(`${field}: must use https`);
  if (url.username || url.password) throw unprocessable(`${field}: must not carry credentials`);
  // The WHATWG parser drops the scheme's default port, so an explicit :443 reads as no port.
  if (url.port !== '') throw unprocessable(`${field}: port must be 443`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) throw unprocessable(`${field}: host must be a name, not an IP address`);
  const reason = hostNameRefusalReason(host.replace(/\.$/, ''));
  if (reason) throw unprocessable(`${field}: host must be a fully-qualified public host name (${reason})`);
  if (url.hash) throw unprocessable(`${field}: must not carry a fragment`);
  return url.toString();
}

import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { assertOutboundUrl } from './outbound-url.js';

function outcome(raw: string, field?: string) {
  try {
    return assertOutboundUrl(raw, field);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('a URL the service POSTs to (webhook endpoints, back-channel logout URIs)', () => {
  it('accepts https to a public name on 443, written normalised', () => {
    expect(outcome('https://hooks.example.com/svc?team=7')).toBe('https://hooks.example.com/svc?team=7');
    expect(outcome('https://hooks.example.com:443/svc')).toBe('https://hooks.example.com/svc');
    expect(outcome('HTTPS://Hooks.Example.COM')).toBe('https://hooks.example.com/');
    expect(outcome('https://hooks.example.com./in')).toBe('https://hooks.example.com./in');
  });

  it('names the field in every refusal (url by default)', () => {
    expect(outcome('not a url')).toBe('422 url: must be an absolute URL');
    expect(outcome('/relative/path', 'backchannel_logout_uri')).toBe(
      '422 backchannel_logout_uri: must be an absolute URL',
    );
  });

  it('refuses other schemes, other ports and credentials', () => {
    expect(outcome('http://hooks.example.com/')).toBe('422 url: must use https');
    expect(outcome('ftp://hooks.example.com/')).toBe('422 url: must use https');
    expect(outcome('https://hooks.example.com:8443/')).toBe('422 url: port must be 443');
    expect(outcome('https://user:pass@hooks.example.com/')).toBe('422 url: must not carry credentials');
    expect(outcome('https://user@hooks.example.com/')).toBe('422 url: must not carry credentials');
  });

  it('refuses IP literals, v4 and v6, however written', () => {
    const ip = '422 url: host must be a name, not an IP address';
    expect(outcome('https://203.0.113.7/')).toBe(ip);
    expect(outcome('https://[2001:db8::1]/')).toBe(ip);
    // The WHATWG parser reads these as 127.0.0.1.
    expect(outcome('https://2130706433/')).toBe(ip);
    expect(outcome('https://0x7f.1/')).toBe(ip);
  });

  it('refuses local-only and single-label names', () => {
    const host = (reason: string) => `422 url: host must be a fully-qualified public host name (${reason})`;
    expect(outcome('https://localhost/')).toBe(host('localhost name (RFC 6761)'));
    expect(outcome('https://api.localhost/')).toBe(host('localhost name (RFC 6761)'));
    expect(outcome('https://intranet/')).toBe(host('single-label host name'));
    expect(outcome('https://printer.local/')).toBe(host('multicast DNS name (RFC 6762)'));
    expect(outcome('https://nas.home.arpa/')).toBe(host('home network name (RFC 8375)'));
    expect(outcome('https://vault.corp.internal/')).toBe(host('private-use name (.internal)'));
    expect(outcome('https://localhost./')).toBe(host('localhost name (RFC 6761)'));
  });

  it('refuses a fragment, but not an empty one', () => {
    expect(outcome('https://hooks.example.com/#frag')).toBe('422 url: must not carry a fragment');
    expect(outcome('https://hooks.example.com/#')).toBe('https://hooks.example.com/#');
  });
});

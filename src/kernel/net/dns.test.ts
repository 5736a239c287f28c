import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordType, startDnsServer, type Zone } from '../../../test/support/dns.js';
import { createDns } from './dns.js';

// A real DNS server on a random loopback UDP port. Names absent from the zone answer NXDOMAIN; names present
// without the asked type answer NOERROR with no records (NODATA).
const zone: Zone = {
  'example.test': [
    { type: RecordType.A, address: '93.184.216.34' },
    { type: RecordType.AAAA, address: '2606:2800:220:1:248:1893:25c8:1946' },
    { type: RecordType.TXT, data: 'svc-verify=abc123' },
    { type: RecordType.TXT, data: ['v=spf1 ', '-all'] },
    { type: RecordType.MX, exchange: 'mx1.example.test', priority: 10 },
  ],
  'v4only.example.test': [{ type: RecordType.A, address: '8.8.4.4' }],
};

let server: Awaited<ReturnType<typeof startDnsServer>>;
let port = 0;

beforeAll(async () => {
  server = await startDnsServer(zone);
  port = server.port;
});

afterAll(async () => {
  await server?.close();
});

describe('createDns with DNS_SERVERS', () => {
  const dns = () => createDns({ dnsServers: [`127.0.0.1:${port}`] });

  it('resolves TXT records as character strings', async () => {
    const records = await dns().resolveTxt('example.test');
    expect(records).toHaveLength(2);
    expect(records).toContainEqual(['svc-verify=abc123']);
    expect(records.map((chunks) => chunks.join(''))).toContain('v=spf1 -all');
  });

  it('answers an empty list for NXDOMAIN and NODATA instead of throwing', async () => {
    await expect(dns().resolveTxt('missing.example.test')).resolves.toEqual([]);
    await expect(dns().resolveTxt('v4only.example.test')).resolves.toEqual([]);
    await expect(dns().resolveMx('missing.example.test')).resolves.toEqual([]);
    await expect(dns().resolveMx('v4only.example.test')).resolves.toEqual([]);
  });

  it('resolves MX records', async () => {
    await expect(dns().resolveMx('example.test')).resolves.toEqual([{ exchange: 'mx1.example.test', priority: 10 }]);
  });

  it('looks up every A and AAAA address', async () => {
    await expect(dns().lookupAll('example.test')).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    await expect(dns().lookupAll('v4only.example.test')).resolves.toEqual([{ address: '8.8.4.4', family: 4 }]);
    await expect(dns().lookupAll('missing.example.test')).resolves.toEqual([]);
  });

  it('answers an IP literal with itself', async () => {
    await expect(dns().lookupAll('2606:4700::1111')).resolves.toEqual([{ address: '2606:4700::1111', family: 6 }]);
  });

  it('accepts a bracketed IPv6 server with a port', async () => {
    expect(() => createDns({ dnsServers: ['[::1]:5353', '127.0.0.1'] })).not.toThrow();
  });
});

describe('createDns without DNS_SERVERS', () => {
  it('looks addresses up through the system (hosts file included)', async () => {
    const addresses = await createDns({ dnsServers: [] }).lookupAll('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address, family } of addresses) {
      expect(['127.0.0.1', '::1']).toContain(address);
      expect(family).toBe(address.includes(':') ? 6 : 4);
    }
  });

  it('answers an IP literal with itself', async () => {
    await expect(createDns({ dnsServers: [] }).lookupAll('8.8.8.8')).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { hostNameRefusalReason, isPublicAddress, refusalReason } from './address-policy.js';

// [address, words the refusal reason must contain]
const refusedIpv4: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['0.255.255.255', 'this network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.255', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['254.1.2.3', 'reserved'],
  ['255.255.255.255', 'broadcast'],
];

const refusedIpv6: [string, string][] = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::101', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['100::1', 'discard'],
  ['100::ffff:ffff:ffff:ffff', 'discard'],
  // IPv4-mapped, dotted and hex forms, private and public alike (see the policy's comment for the choice).
  ['::ffff:127.0.0.1', 'IPv4-mapped address of 127.0.0.1'],
  ['::ffff:7f00:1', 'IPv4-mapped address of 127.0.0.1'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped address of 169.254.169.254'],
  ['::ffff:8.8.8.8', 'IPv4-mapped'],
  ['0:0:0:0:0:ffff:10.0.0.1', 'IPv4-mapped'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated'],
  // IPv4-compatible (deprecated), any embedded address.
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::7f00:1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  // NAT64 well-known prefix embedding a refused IPv4 address.
  ['64:ff9b::127.0.0.1', 'NAT64 address embedding 127.0.0.1, loopback'],
  ['64:ff9b::a00:1', 'NAT64 address embedding 10.0.0.1, private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 address embedding 169.254.169.254'],
  // Local-use NAT64 prefix, refused whatever it embeds.
  ['64:ff9b:1::7f00:1', 'local-use NAT64'],
  ['64:ff9b:1::808:808', 'local-use NAT64'],
  // 6to4 embedding a refused IPv4 address (bits 16-47).
  ['2002:7f00:1::1', '6to4 address embedding 127.0.0.1, loopback'],
  ['2002:c0a8:101::', '6to4 address embedding 192.168.1.1, private'],
  ['2002:a9fe:a9fe::1', '6to4 address embedding 169.254.169.254'],
  // Teredo and the rest of the IETF protocol assignments.
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:2::1', 'IETF protocol assignments'],
  // Outside global unicast.
  ['5f00::1', 'global unicast'],
  ['4000::1', 'global unicast'],
  ['fe80::1%eth0', 'zone id'],
];

const notAddresses = [
  'example.com',
  '127.1',
  '0x7f.0.0.1',
  '2130706433',
  '010.0.0.1',
  '',
  '1.2.3.4.5',
  ':::1',
  'fe80::g',
];

const publicAddresses = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '9.255.255.255', // just below 10/8
  '11.0.0.0', // just above 10/8
  '100.63.255.255', // just below 100.64/10
  '100.128.0.0', // just above 100.64/10
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above 172.16/12
  '192.0.1.1',
  '192.0.3.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0', // just above 198.18/15
  '223.255.255.255', // just below multicast
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '[2606:4700:4700::1001]',
  '2a00:1450:4001:82a::200e',
  '2001:200::1', // first address past 2001::/23
  '64:ff9b::8.8.8.8', // NAT64 of a public address reaches that public address
  '64:ff9b::808:808',
  '2002:808:808::1', // 6to4 of 8.8.8.8
];

describe('refusalReason', () => {
  it.each(refusedIpv4)('refuses IPv4 %s (%s)', (ip, words) => {
    expect(refusalReason(ip)).toContain(words);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(refusedIpv6)('refuses IPv6 %s (%s)', (ip, words) => {
    expect(refusalReason(ip)).toContain(words);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(notAddresses)('refuses %j, which is not a canonical IP address', (text) => {
    expect(refusalReason(text)).toBe('not an IP address');
  });

  it.each(publicAddresses)('allows public %s', (ip) => {
    expect(refusalReason(ip)).toBeNull();
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('hostNameRefusalReason', () => {
  it.each([
    ['', 'empty'],
    ['intranet', 'single-label'],
    ['metadata', 'single-label'],
    ['localhost', 'localhost'],
    ['app.localhost', 'localhost'],
    ['printer.local', 'multicast DNS'],
    ['router.home.arpa', 'home network'],
    ['db.corp.internal', 'private-use'],
  ])('refuses %j (%s)', (name, words) => {
    expect(hostNameRefusalReason(name)).toContain(words);
  });

  it.each(['example.com', 'hooks.example.test', 'xn--bcher-kva.example', 'a.b.c.d.e'])('allows %s', (name) => {
    expect(hostNameRefusalReason(name)).toBeNull();
  });
});

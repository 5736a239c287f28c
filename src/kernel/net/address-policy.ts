import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses the egress client may connect to. Everything that is not a globally reachable unicast address is
 * refused: the IANA special-purpose registries (RFC 6890 and its updates) for IPv4 and IPv6, plus every IPv6 form
 * that embeds an IPv4 address the IPv4 rules refuse. Anything that does not parse as a canonical address is refused
 * too, so an odd spelling can never slip past the rules (fail closed).
 */

type Ipv4Rule = { base: number; prefix: number; reason: string };

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function numberToIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

function rule(cidr: string, reason: string): Ipv4Rule {
  const [base, prefix] = cidr.split('/');
  return { base: ipv4ToNumber(base!), prefix: Number(prefix), reason: `${reason} (${cidr})` };
}

// Order matters only for the reason given: the broadcast address is named before the reserved block holding it.
const IPV4_RULES: Ipv4Rule[] = [
  rule('255.255.255.255/32', 'limited broadcast'),
  rule('0.0.0.0/8', '"this network"'),
  rule('10.0.0.0/8', 'private network'),
  rule('100.64.0.0/10', 'shared address space (CGNAT)'),
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'),
  rule('172.16.0.0/12', 'private network'),
  rule('192.0.0.0/24', 'IETF protocol assignments'),
  rule('192.0.2.0/24', 'documentation'),
  rule('192.88.99.0/24', '6to4 relay anycast'),
  rule('192.168.0.0/16', 'private network'),
  rule('198.18.0.0/15', 'benchmarking'),
  rule('198.51.100.0/24', 'documentation'),
  rule('203.0.113.0/24', 'documentation'),
  rule('224.0.0.0/4', 'multicast'),
  rule('240.0.0.0/4', 'reserved'),
];

function ipv4Refusal(value: number): string | null {
  for (const { base, prefix, reason } of IPV4_RULES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return reason;
  }
  return null;
}

/** Eight 16-bit groups of a valid IPv6 address (zone id already removed), embedded dotted IPv4 included. */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const before = parse(head);
  const after = parse(rest);
  const zeros = rest === undefined ? [] : new Array<number>(8 - before.length - after.length).fill(0);
  return [...before, ...zeros, ...after];
}

function embeddedIpv4(groups: number[], index: number): number {
  return ((groups[index]! << 16) | groups[index + 1]!) >>> 0;
}

function ipv6Refusal(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified address (::/128)';
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback (::1/128)';
  // IPv4-mapped addresses are refused whatever IPv4 address they carry, public ones included (our choice): RFC 4291
  // section 2.5.5.2 reserves them for an IPv6 socket's internal view of an IPv4 peer, so no real host publishes one in
  // DNS or a URL, and refusing them outright leaves no room for the OS to map them somewhere unexpected.
  if (firstFiveZero && g5 === 0xffff) {
    return `IPv4-mapped address of ${numberToIpv4(embeddedIpv4(groups, 6))} (::ffff:0:0/96)`;
  }
  // IPv4-translated addresses (RFC 2765, ::ffff:0:0:0/96): same reasoning as the mapped form.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    return `IPv4-translated address of ${numberToIpv4(embeddedIpv4(groups, 6))} (::ffff:0:0:0/96)`;
  }
  // IPv4-compatible addresses are deprecated (RFC 4291 section 2.5.5.1); refused whatever they carry.
  if (firstFiveZero && g5 === 0) return `IPv4-compatible address (::/96, deprecated)`;
  // Well-known NAT64 prefix (RFC 6052): reaches the embedded IPv4 address, so that address decides.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const v4 = embeddedIpv4(groups, 6);
    const reason = ipv4Refusal(v4);
    return reason ? `NAT64 address embedding ${numberToIpv4(v4)}, ${reason}` : null;
  }
  // Local-use NAT64 (RFC 8215) is not globally reachable, and where the IPv4 address sits inside it depends on a
  // prefix length chosen by the local network, so the embedded address cannot be vetted: refused as a whole.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'local-use NAT64 prefix (64:ff9b:1::/48)';
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'discard-only prefix (100::/64)';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique local address (fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local, deprecated (fec0::/10)';
  if ((g0 & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation (2001:db8::/32)';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation (3fff::/20)';
  if (g0 === 0x2001 && g1 === 0) return 'Teredo tunnel (2001::/32)';
  // The rest of 2001::/23 is IETF protocol assignments (benchmarking, ORCHID, AMT, ...): nothing a tenant's webhook
  // or identity provider lives on.
  if (g0 === 0x2001 && g1 < 0x200) return 'IETF protocol assignments (2001::/23)';
  if (g0 === 0x2002) {
    const v4 = embeddedIpv4(groups, 1);
    const reason = ipv4Refusal(v4);
    return reason ? `6to4 address embedding ${numberToIpv4(v4)}, ${reason}` : null;
  }
  // Only 2000::/3 is allocated as global unicast; everything else (5f00::/16 SRv6, unassigned space) is refused.
  if ((g0 & 0xe000) !== 0x2000) return 'outside global unicast space (2000::/3)';
  return null;
}

/**
 * Why the egress client must not connect to `ip`, or null when it is a public unicast address. Takes an address as
 * `node:net` and the WHATWG URL parser write it (IPv6 with or without brackets); anything else is refused.
 */
export function refusalReason(ip: string): string | null {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (address.includes('%')) return 'scoped IPv6 address (zone id)';
  if (isIPv4(address)) return ipv4Refusal(ipv4ToNumber(address));
  if (isIPv6(address)) return ipv6Refusal(ipv6Groups(address));
  return 'not an IP address';
}

export function isPublicAddress(ip: string): boolean {
  return refusalReason(ip) === null;
}

/**
 * Why a host name must not be used even before it is resolved, or null. These are the names that never denote a
 * public host: single labels (resolved through search domains to internal hosts), `localhost` (RFC 6761 section
 * 6.3), mDNS `.local` (RFC 6762), `.home.arpa` (RFC 8375) and the private-use `.internal` top-level domain. The
 * check also guards test routes, whose names are never resolved. `name` is lower-case without a trailing dot.
 */
export function hostNameRefusalReason(name: string): string | null {
  if (name === '') return 'empty host name';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost name (RFC 6761)';
  if (!name.includes('.')) return 'single-label host name';
  if (name.endsWith('.local')) return 'multicast DNS name (RFC 6762)';
  if (name === 'home.arpa' || name.endsWith('.home.arpa')) return 'home network name (RFC 8375)';
  if (name.endsWith('.internal')) return 'private-use name (.internal)';
  return null;
}

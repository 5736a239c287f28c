import type { MxRecord } from 'node:dns';
import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import type { Config } from '../../config.js';

export type { MxRecord } from 'node:dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface Dns {
  /** TXT records, each as its character strings (join them to read a long record). Empty when the name has none. */
  resolveTxt(name: string): Promise<string[][]>;
  /** MX records. Empty when the name has none. */
  resolveMx(name: string): Promise<MxRecord[]>;
  /**
   * Every IPv4 and IPv6 address of `name` (an IP literal answers itself). Empty when the name does not exist or has
   * no address; other failures (timeout, SERVFAIL, refused) throw with the resolver's error code.
   */
  lookupAll(name: string): Promise<ResolvedAddress[]>;
}

// c-ares answers NODATA with ENODATA and NXDOMAIN with ENOTFOUND; getaddrinfo answers both with ENOTFOUND.
const ABSENT = new Set(['ENODATA', 'ENOTFOUND']);

async function orEmpty<T>(answer: Promise<T[]>): Promise<T[]> {
  try {
    return await answer;
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}

function literal(name: string): ResolvedAddress[] | undefined {
  const family = isIP(name);
  return family === 4 || family === 6 ? [{ address: name, family }] : undefined;
}

/**
 * The service's DNS. With `DNS_SERVERS` set every query (addresses included) goes to those servers, so tests and
 * operators control what names mean; without it TXT and MX use the system's resolvers and addresses come from
 * `getaddrinfo` (hosts file included), like any other program on the machine.
 */
/** One shape on every Node: Node 24's resolver adds `type: 'MX'` to each record, Node 20's does not. */
const mxRecords = (records: MxRecord[]): MxRecord[] =>
  records.map(({ exchange, priority }) => ({ exchange, priority }));

export function createDns(config: Pick<Config, 'dnsServers'>): Dns {
  if (config.dnsServers.length === 0) {
    return {
      resolveTxt: (name) => orEmpty(dnsPromises.resolveTxt(name)),
      resolveMx: (name) => orEmpty(dnsPromises.resolveMx(name)).then(mxRecords),
      async lookupAll(name) {
        const known = literal(name);
        if (known) return known;
        const answers = await orEmpty(dnsPromises.lookup(name, { all: true }));
        return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
      },
    };
  }

  // A short per-try timeout: the egress client's own deadline bounds the whole look-up anyway.
  const resolver = new dnsPromises.Resolver({ timeout: 2_000, tries: 2 });
  // Entries are `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`, the forms setServers accepts.
  resolver.setServers(config.dnsServers);
  return {
    resolveTxt: (name) => orEmpty(resolver.resolveTxt(name)),
    resolveMx: (name) => orEmpty(resolver.resolveMx(name)).then(mxRecords),
    async lookupAll(name) {
      const known = literal(name);
      if (known) return known;
      const [v4, v6] = await Promise.all([orEmpty(resolver.resolve4(name)), orEmpty(resolver.resolve6(name))]);
      return [
        ...v4.map((address): ResolvedAddress => ({ address, family: 4 })),
        ...v6.map((address): ResolvedAddress => ({ address, family: 6 })),
      ];
    },
  };
}

/** Fastify's `trustProxy` for the configured proxies (`TRUST_PROXY`, see config.ts). */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * A list of proxy addresses and CIDRs goes to Fastify as is: proxy-addr walks X-Forwarded-For from the right and
 * the client is the first address no listed proxy wrote. A hop count becomes a function: Fastify 5 treats a bare
 * number as "trust no hop" (it cannot check the peer), so `hop < hops` trusts the socket's peer (hop 0) and the
 * right-most `hops - 1` entries, and the client is the entry the outermost proxy appended. That relies on the
 * service being reachable only through those proxies (docs/operating.md); a list does not.
 */
export function trustProxyOf(configured: false | number | string[]): TrustProxy {
  if (configured === false || configured === 0) return false;
  if (typeof configured === 'number') return (_address, hop) => hop < configured;
  return configured;
}

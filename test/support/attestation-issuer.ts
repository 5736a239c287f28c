import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

/**
 * Workload identity issuers (GitHub Actions, GitLab CI, Kubernetes…) run by the test: one TLS server with the
 * certificate of `src/kernel/net/testdata` (`secure.example.test`, signed by the test CA), serving any number of
 * issuers under their own paths, each with its discovery document and JWK Set, and signing attestations with its
 * own RS256 or ES256 keys. The service reaches it through its egress client with a test route
 * (EGRESS_TEST_ROUTES=secure.example.test=127.0.0.1:port, EGRESS_TEST_CA_FILE).
 */
const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);
export const TEST_CA_FILE = new URL('ca.pem', testdata).pathname;
export const ISSUER_HOST = 'secure.example.test';

export type AttestationAlg = 'RS256' | 'ES256';
/** Algorithms a test may sign with on the same keys, to see them refused. */
export type SigningAlg = AttestationAlg | 'RS384' | 'RS512' | 'PS256' | 'ES384';

interface SigningKey {
  kid: string;
  alg: AttestationAlg;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface TestIssuer {
  /** The exact `iss` of its attestations: `https://secure.example.test/<name>`. */
  iss: string;
  jwksUri: string;
  /** How many times its JWK Set was fetched. */
  jwksFetches: number;
  /** The key signing by default (the newest). */
  currentKid: string;
  /**
   * Signs an attestation: `iss` this issuer, `iat` `now`, `exp` 5 minutes later, a fresh `jti`, then `claims`
   * (an `undefined` value removes a claim). `header` overrides protected header fields.
   */
  sign(
    claims: Record<string, unknown>,
    options?: { now?: Date; alg?: SigningAlg; key?: AttestationAlg; kid?: string; header?: Record<string, unknown> },
  ): Promise<string>;
  /** Adds a new signing key of `alg` to the published set (and signs with it by default); answers its kid. */
  rotate(alg?: AttestationAlg, options?: { dropOld?: boolean }): Promise<string>;
  /** A key of the right type that is not published: its signatures do not verify. */
  forge(claims: Record<string, unknown>, options?: { now?: Date; alg?: AttestationAlg; kid?: string }): Promise<string>;
}

export interface AttestationIssuers {
  port: number;
  /** `EGRESS_TEST_ROUTES` entry sending the issuers' host name to the loopback port. */
  route: string;
  /** A new issuer at `https://secure.example.test/<name>` with one key of `alg`. */
  issuer(name: string, alg?: AttestationAlg): Promise<TestIssuer>;
  close(): Promise<void>;
}

async function newKey(alg: AttestationAlg): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

async function signWith(
  key: { privateKey: CryptoKey; kid: string; alg: SigningAlg },
  iss: string,
  claims: Record<string, unknown>,
  options: { now?: Date; header?: Record<string, unknown> },
): Promise<string> {
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const payload: Record<string, unknown> = { iss, iat, exp: iat + 300, jti: randomUUID(), ...claims };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  // A Web Crypto key is bound to its hash: another algorithm on the same key material needs it imported again.
  const signingKey =
    key.alg === 'RS256' || key.alg === 'ES256'
      ? key.privateKey
      : await importJWK(await exportJWK(key.privateKey), key.alg);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...options.header } as never)
    .sign(signingKey);
}

export async function startAttestationIssuers(): Promise<AttestationIssuers> {
  const issuers = new Map<string, { published: SigningKey[]; state: TestIssuer }>();
  const base = `https://${ISSUER_HOST}`;

  const server = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    (request: IncomingMessage, response: ServerResponse) => {
      const [, name, ...rest] = (request.url ?? '').split('?')[0]!.split('/');
      const found = issuers.get(name ?? '');
      const path = `/${rest.join('/')}`;
      const json = (body: unknown) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (found && path === '/.well-known/openid-configuration') {
        return json({
          issuer: found.state.iss,
          jwks_uri: found.state.jwksUri,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        });
      }
      if (found && path === '/jwks') {
        found.state.jwksFetches += 1;
        return json({ keys: found.published.map((key) => key.publicJwk) });
      }
      response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    route: `${ISSUER_HOST}=127.0.0.1:${port}`,
    async issuer(name, alg = 'RS256') {
      const published = [await newKey(alg)];
      const iss = `${base}/${name}`;
      const keyOf = (kid: string | undefined, wanted: AttestationAlg | undefined) => {
        const candidates = published.filter((k) => (kid ? k.kid === kid : !wanted || k.alg === wanted));
        const key = candidates[candidates.length - 1];
        if (!key) throw new Error(`issuer ${name} has no key ${kid ?? wanted}`);
        return key;
      };
      const state: TestIssuer = {
        iss,
        jwksUri: `${iss}/jwks`,
        jwksFetches: 0,
        currentKid: published[0]!.kid,
        sign(claims, options = {}) {
          // `key` picks the key type when `alg` names one the service must refuse (RS384 on an RSA key).
          const key = keyOf(options.kid, options.key ?? (options.alg as AttestationAlg | undefined));
          return signWith({ ...key, alg: options.alg ?? key.alg }, iss, claims, options);
        },
        async rotate(newAlg = alg, options = {}) {
          const key = await newKey(newAlg);
          if (options.dropOld) published.length = 0;
          published.push(key);
          state.currentKid = key.kid;
          return key.kid;
        },
        async forge(claims, options = {}) {
          const forger = await newKey(options.alg ?? alg);
          return signWith({ ...forger, kid: options.kid ?? state.currentKid }, iss, claims, options);
        },
      };
      issuers.set(name, { published, state });
      return state;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

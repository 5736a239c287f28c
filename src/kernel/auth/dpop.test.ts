import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../../../test/support/dpop.js';
import { ManualClock } from '../clock.js';
import { createDpopVerifier, DpopError } from './dpop.js';

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
const verifiers = [
  createDpopVerifier({ clock, baseUrl: 'https://id.example.test' }),
  ...(process.env.REDIS_URL
    ? [
        createDpopVerifier({
          clock,
          baseUrl: 'https://id.example.test',
          redisUrl: process.env.REDIS_URL,
          keyPrefix: `test-dpop-${Math.random().toString(36).slice(2)}`,
        }),
      ]
    : []),
];
afterAll(async () => {
  for (const verifier of verifiers) await verifier.close();
});

const URL_ME = 'https://id.example.test/api/v1/me';
const token = 'header.payload.signature';

describe.each(verifiers.map((verifier, i) => [i === 0 ? 'memory' : 'redis', verifier] as const))(
  'DPoP proof verifier (%s replay cache)',
  (_name, verifier) => {
    it('accepts a fresh proof and answers the key thumbprint; refuses it the second time (jti)', async () => {
      const key = await newDpopKey();
      const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
      const { jkt } = await verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token });
      expect(jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token })).rejects.toThrow(
        /replayed/,
      );
    });

    it('remembers a jti as long as its proof is acceptable, across many proofs', async () => {
      const key = await newDpopKey('RS256');
      const first = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
      await verifier.verify({ proof: first, method: 'GET', url: URL_ME, accessToken: token });
      for (let i = 0; i < 200; i++) {
        const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
        await verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token });
      }
      await expect(verifier.verify({ proof: first, method: 'GET', url: URL_ME, accessToken: token })).rejects.toThrow(
        /replayed/,
      );
    });

    it('ignores the query and fragment of htu, as RFC 9449 section 4.3 says', async () => {
      const key = await newDpopKey('EdDSA');
      const proof = await key.proof('GET', `${URL_ME}#frag`, { accessToken: token, now: clock.now() });
      await verifier.verify({ proof, method: 'GET', url: `${URL_ME}?limit=5`, accessToken: token });
    });

    const cases: Array<[string, (key: Awaited<ReturnType<typeof newDpopKey>>) => Promise<string>, RegExp]> = [
      [
        'wrong typ',
        (k) => k.proof('GET', URL_ME, { accessToken: token, now: clock.now(), header: { typ: 'JWT' } }),
        /typ/,
      ],
      ['wrong htm', (k) => k.proof('POST', URL_ME, { accessToken: token, now: clock.now() }), /htm/],
      [
        'wrong htu',
        (k) => k.proof('GET', 'https://evil.example/api/v1/me', { accessToken: token, now: clock.now() }),
        /htu/,
      ],
      [
        'stale iat',
        (k) => k.proof('GET', URL_ME, { accessToken: token, now: new Date(clock.now().getTime() - 120_000) }),
        /iat/,
      ],
      [
        'future iat',
        (k) => k.proof('GET', URL_ME, { accessToken: token, now: new Date(clock.now().getTime() + 120_000) }),
        /iat/,
      ],
      ['wrong ath', (k) => k.proof('GET', URL_ME, { accessToken: 'another.token.value', now: clock.now() }), /ath/],
      ['missing ath', (k) => k.proof('GET', URL_ME, { now: clock.now() }), /ath/],
      [
        'missing jti',
        (k) => k.proof('GET', URL_ME, { accessToken: token, now: clock.now(), claims: { jti: undefined } }),
        /jti/,
      ],
    ];
    it.each(cases)('refuses a proof with %s', async (_label, build, message) => {
      const proof = await build(await newDpopKey());
      const attempt = verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token });
      await expect(attempt).rejects.toBeInstanceOf(DpopError);
      await expect(attempt).rejects.toThrow(message);
    });

    it('refuses a proof signed by another key than the embedded one, and a key that is not the bound one', async () => {
      const key = await newDpopKey();
      const other = await newDpopKey();
      const forged = await key.proof('GET', URL_ME, {
        accessToken: token,
        now: clock.now(),
        header: { jwk: other.publicJwk },
      });
      await expect(verifier.verify({ proof: forged, method: 'GET', url: URL_ME, accessToken: token })).rejects.toThrow(
        /signature/,
      );
      const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
      const expectedJkt = createHash('sha256').update('not this key').digest('base64url');
      await expect(
        verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token, expectedJkt }),
      ).rejects.toThrow(/key does not match/);
    });

    it('refuses a missing, repeated or malformed header and a private key in the header', async () => {
      for (const proof of [undefined, 'not-a-jwt', ['a.b.c', 'a.b.c']]) {
        await expect(verifier.verify({ proof, method: 'GET', url: URL_ME })).rejects.toThrow(/missing or malformed/);
      }
      const key = await newDpopKey();
      const withPrivate = await key.proof('POST', URL_ME, {
        now: clock.now(),
        header: { jwk: { ...key.publicJwk, d: 'AAAA' } },
      });
      await expect(verifier.verify({ proof: withPrivate, method: 'POST', url: URL_ME })).rejects.toThrow(/public JWK/);
    });

    it('refuses none, MAC and mismatched algorithms, and crit headers, before any key is used', async () => {
      const key = await newDpopKey();
      const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
      const [h, p, sig] = proof.split('.');
      const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
      const withHeader = (changes: Record<string, unknown>) =>
        `${Buffer.from(JSON.stringify({ ...header, ...changes })).toString('base64url')}.${p}.${sig}`;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ alg: 'none' }, /algorithm not allowed/],
        [{ alg: 'HS256' }, /algorithm not allowed/],
        [{ alg: 'toString' }, /algorithm not allowed/],
        [{ alg: 'RS256' }, /does not fit/],
        [{ alg: 'ES384' }, /does not fit/],
        [{ crit: ['exp'] }, /crit/],
        [{ jwk: undefined }, /public JWK/],
      ];
      for (const [changes, message] of cases) {
        await expect(
          verifier.verify({ proof: withHeader(changes), method: 'GET', url: URL_ME, accessToken: token }),
          JSON.stringify(changes),
        ).rejects.toThrow(message);
      }
    });

    it('accepts ES384, EdDSA, RS256 and PS256 proofs', async () => {
      for (const alg of ['ES384', 'EdDSA', 'RS256', 'PS256'] as const) {
        const key = await newDpopKey(alg);
        const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
        await verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token });
      }
    });

    it('checks RSASSA-PKCS1-v1_5 signatures exactly: any altered, short, long or out-of-range one is refused', async () => {
      for (const [alg, modulusLength] of [
        ['RS256', 2048],
        ['RS384', 3072],
        ['RS512', 4096],
      ] as const) {
        const key = await newDpopKey(alg, { modulusLength });
        const good = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() });
        await verifier.verify({ proof: good, method: 'GET', url: URL_ME, accessToken: token });

        const [h, p, s] = (await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() })).split('.');
        const signature = Buffer.from(s!, 'base64url');
        const n = Buffer.from(String(key.publicJwk.n), 'base64url');
        const flipped = Buffer.from(signature);
        flipped[flipped.length - 1]! ^= 0x01;
        const otherClaims = Buffer.from(
          JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), jti: 'another-jti-value' }),
        ).toString('base64url');
        for (const [label, forged] of [
          ['altered', `${h}.${p}.${flipped.toString('base64url')}`],
          ['short', `${h}.${p}.${signature.subarray(1).toString('base64url')}`],
          ['long', `${h}.${p}.${Buffer.concat([Buffer.from([0]), signature]).toString('base64url')}`],
          ['the modulus itself', `${h}.${p}.${n.toString('base64url')}`],
          ['over other claims', `${h}.${otherClaims}.${s}`],
        ]) {
          await expect(
            verifier.verify({ proof: forged, method: 'GET', url: URL_ME, accessToken: token }),
            `${alg} ${label}`,
          ).rejects.toThrow(/signature invalid/);
        }
      }
    });

    it('refuses claims that are not a JSON object', async () => {
      const key = await newDpopKey('RS256');
      const [h, , s] = (await key.proof('GET', URL_ME, { accessToken: token, now: clock.now() })).split('.');
      // The header is known after the first proof: the rest is still checked.
      for (const claims of ['[]', 'null', '"text"', '{not json']) {
        const proof = `${h}.${Buffer.from(claims).toString('base64url')}.${s}`;
        await expect(verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token })).rejects.toThrow(
          /malformed/,
        );
      }
      await expect(
        verifier.verify({ proof: `${h}.e30.${s}*`, method: 'GET', url: URL_ME, accessToken: token }),
      ).rejects.toThrow(/missing or malformed/);
    });

    it('refuses RSA keys with a huge public exponent or modulus (costly to verify)', async () => {
      const key = await newDpopKey('RS256');
      const n = Buffer.from(String(key.publicJwk.n), 'base64url');
      const hugeE = Buffer.concat([Buffer.from([0x01]), Buffer.alloc(n.length - 2, 0xab), Buffer.from([0x01])]);
      const hugeN = Buffer.concat([Buffer.from([0xc1]), randomBytes(1024), Buffer.from([0x01])]);
      for (const jwk of [
        { ...key.publicJwk, e: hugeE.toString('base64url') },
        { ...key.publicJwk, n: hugeN.toString('base64url') },
      ]) {
        const proof = await key.proof('GET', URL_ME, { accessToken: token, now: clock.now(), header: { jwk } });
        await expect(verifier.verify({ proof, method: 'GET', url: URL_ME, accessToken: token })).rejects.toThrow(
          /too large/,
        );
      }
    });

    it('refuses ath where no access token is presented (refresh)', async () => {
      const key = await newDpopKey();
      const proof = await key.proof('POST', URL_ME, { accessToken: token, now: clock.now() });
      await expect(verifier.verify({ proof, method: 'POST', url: URL_ME })).rejects.toThrow(/ath/);
    });
  },
);

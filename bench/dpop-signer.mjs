import { createHash, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Signs DPoP proofs (RFC 9449) synchronously with node:crypto for one client key: `alg` ES256 or RS256,
 * `privateKey` a KeyObject or PKCS#8 PEM, `header` the proof's encoded protected header (with the public JWK).
 */
export function proofSigner({ alg, privateKey, header }) {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const signingKey = alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key;
  const athOf = new Map();
  return (method, htu, accessToken) => {
    const claims = { jti: randomUUID(), htm: method, htu, iat: Math.floor(Date.now() / 1000) };
    if (accessToken) {
      if (!athOf.has(accessToken)) athOf.set(accessToken, createHash('sha256').update(accessToken).digest('base64url'));
      claims.ath = athOf.get(accessToken);
    }
    const input = `${header}.${b64(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), signingKey).toString('base64url')}`;
  };
}

export const encodeHeader = b64;

// As a worker thread: sign `count` proofs for each of `keys`, post them back (one array per key, in signing order).
if (!isMainThread && workerData?.dpopSigner) {
  const { keys, count, method, htu } = workerData;
  const lists = keys.map(({ alg, privateKeyPem, header, accessToken }) => {
    const proof = proofSigner({ alg, privateKey: privateKeyPem, header });
    return Array.from({ length: count }, () => proof(method, htu, accessToken));
  });
  parentPort.postMessage(lists);
}

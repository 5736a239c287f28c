// The "bare Fastify + JWT verify" ceiling: one route that does what every authenticated request of the
// service must do at least (parse the Bearer header, verify one RS256 JWT with jose against a local public
// key) and answers a small JSON. Started as a child process by bench/run.mjs, like the service itself.
//
// env: PORT, HOST (default 127.0.0.1), BENCH_PUBLIC_KEY_PEM (SPKI PEM), BENCH_ISSUER, BENCH_AUDIENCE.
import { createPublicKey } from 'node:crypto';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';

const publicKey = createPublicKey(process.env.BENCH_PUBLIC_KEY_PEM ?? '');
const issuer = process.env.BENCH_ISSUER;
const audience = process.env.BENCH_AUDIENCE;

const app = Fastify({ logger: false });

app.get('/api/v1/me', async (request, reply) => {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) {
    return reply.code(401).send({ detail: 'Missing bearer token' });
  }
  try {
    const { payload } = await jwtVerify(header.slice(7), publicKey, {
      algorithms: ['RS256'],
      issuer,
      audience,
      typ: 'at+jwt',
      requiredClaims: ['sub', 'tid', 'sid', 'exp', 'iat'],
    });
    return { user_id: payload.sub, tenant_id: payload.tid };
  } catch {
    return reply.code(401).send({ detail: 'Invalid access token' });
  }
});

const close = () =>
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on('SIGTERM', close);
process.on('SIGINT', close);

await app.listen({ host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT) });

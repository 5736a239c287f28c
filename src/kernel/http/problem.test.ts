import Fastify, { type FastifyReply } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from './errors.js';
import { registerHttpKernel } from './plugin.js';
import { errors } from './problem.js';
import { schemaController } from './validation.js';

// Any module's routes answer the kernel's error body, whatever order the modules register in (issue 19 item 2):
// the shared `Problem` schema comes with the kernel, not with the first module that happened to add it.
describe('the kernel error model', () => {
  let app: ReturnType<typeof Fastify> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('lets a route refer to Problem with only the HTTP kernel registered', async () => {
    app = Fastify({ schemaController });
    registerHttpKernel(app);
    app.get('/gone', { schema: { response: errors(404, 409) } }, async () => {
      throw new HttpError(404, 'No such thing');
    });
    const response = await app.inject({ method: 'GET', url: '/gone' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No such thing' });
  });

  it('serializes only the documented detail of an error body', async () => {
    app = Fastify({ schemaController });
    registerHttpKernel(app);
    app.get('/conflict', { schema: { response: errors(409) } }, async (_request: unknown, reply: FastifyReply) =>
      reply.code(409).send({ detail: 'Taken', secret: 'never on the wire' }),
    );
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'Taken' });
  });
});

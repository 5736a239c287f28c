import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../kernel/clock.js';
import { errors, HttpError, notFound } from '../../kernel/http/index.js';
import { ObjectQuery, VersionParams } from './http-schemas.js';
import { ChecksumGate, type FileObjectLinks, OBJECTS_PATH } from './object-store.js';
import type { createReleases } from './releases-service.js';

const common = { tags: ['distribution'] };

/** Part B 4.10, 5.5: release downloads with a distribution credential, and the `file://` store's object links. */
export function registerDistributionRoutes(
  app: FastifyInstance,
  deps: { releases: ReturnType<typeof createReleases>; files: FileObjectLinks | undefined; clock: Clock },
): void {
  const { releases, files, clock } = deps;

  app.get<{ Params: Static<typeof VersionParams> }>(
    '/api/v1/distribution/releases/:version',
    {
      // The distribution credential is read here, not by the guard: an unknown one must answer the same 404 as
      // every other refusal, never a 401 that would tell credentials apart.
      config: { auth: 'public' },
      schema: {
        ...common,
        summary: 'Download a release: 302 to a short-lived URL of its object',
        description:
          'Authorization: Bearer zdc_…. The URL works for a few minutes without the credential. One identical 404 for every refusal (unknown, revoked or expired credential, revoked licence, missing or yanked release, a release published after the maintenance term); 429 per credential and per source IP; 503 while object storage is not configured.',
        security: [{ bearer: [] }],
        params: VersionParams,
        response: {
          302: Type.Null({ description: 'Location: the presigned URL; Cache-Control: no-store' }),
          ...errors(404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const location = await releases.download({
        ip: request.ip,
        authorization: request.headers.authorization,
        version: request.params.version,
      });
      return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
    },
  );

  if (!files) return;

  app.get<{ Params: { '*': string }; Querystring: Static<typeof ObjectQuery> }>(
    `${OBJECTS_PATH}/*`,
    {
      // The link is the authority: an HMAC over the object key, its expiry, checksum and size.
      config: { auth: 'public' },
      schema: {
        ...common,
        summary: 'A release object of the file:// store, through a signed link that expires',
        description:
          'Streams the object with its checksum checked (a mismatch breaks the transfer before it completes). 403 for a link that is altered or expired.',
        params: Type.Object({ '*': Type.String({ maxLength: 1024 }) }),
        querystring: ObjectQuery,
        response: {
          200: Type.String({ description: 'The object’s bytes', contentMediaType: 'application/octet-stream' }),
          ...errors(403, 404, 422, 500),
        },
      },
    },
    async (request, reply) => {
      const object = files.verify(request.params['*'], request.query, clock.now());
      if (!object) throw new HttpError(403, 'This download link is altered or has expired');
      const path = files.pathOf(object.key);
      const found = path ? await stat(path).catch(() => undefined) : undefined;
      if (!path || !found?.isFile()) throw notFound();
      if (found.size !== object.sizeBytes) {
        request.log.error({ object_key: object.key }, 'release object size differs from its catalogue entry');
        throw new HttpError(500, 'The release object does not match its catalogue entry');
      }
      const body = pipeline(
        createReadStream(path),
        new ChecksumGate(object.checksumSha256, object.sizeBytes),
        (error) => {
          if (error)
            request.log.error({ object_key: object.key, err: error.message }, 'release object not served whole');
        },
      );
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(object.sizeBytes))
        .header('content-disposition', `attachment; filename="${basename(object.key)}"`)
        .header('content-digest', `sha-256=:${Buffer.from(object.checksumSha256, 'hex').toString('base64')}:`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
}

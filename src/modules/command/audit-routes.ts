import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { createAuditReader } from './audit-service.js';
import type { CommandDeps } from './deps.js';

// The audit chain (Part B 2.7, 4.8): `command:read` lists entries, confined like the events; verification also
// needs platform-operator membership (Part B 5.6), as it walks every organization's entries.

const read = { auth: 'any', permission: 'command:read' } as const;
const common = { tags: ['command'], security: [{ bearer: [] }] };
const Hash = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  tenant_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Platform operator: one organization (absent: every organization). Others: their own only, else 403',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 256, description: 'The `next_cursor` of the previous page: the older entries after it' }),
  ),
});

const AuditEntry = Type.Object(
  {
    seq: Type.Integer({ description: 'Position in the one chain, from 1 at genesis' }),
    tenant_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    event_id: Type.String({ format: 'uuid' }),
    occurred_at: Type.String({ format: 'date-time' }),
    actor_id: Type.String(),
    actor_type: Type.String(),
    action: Type.String(),
    outcome: Type.String(),
    correlation_id: Type.Union([Type.String(), Type.Null()]),
    compliance_tags: Type.Array(Type.String(), { description: 'Controls this entry evidences, e.g. soc2:CC6.1' }),
    data: Type.Record(Type.String(), Type.Unknown()),
    prev_hash: Hash,
    entry_hash: Type.String({
      description:
        'SHA-256 (hex) of prev_hash, a newline, and the canonical JSON (keys sorted at every level, no whitespace) of the other fields',
    }),
  },
  { description: 'An entry of the hash-chained audit log' },
);

const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry, { description: 'Newest (highest seq) first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` (with the same filters) for older entries; null when there are none',
  }),
});

const Verification = Type.Object({
  verified: Type.Boolean(),
  entries: Type.Integer({ description: 'Entries found intact, from genesis' }),
  broken_seq: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The first entry whose hash or link does not hold (altered, removed or reordered); null when verified',
  }),
});

export function registerAuditRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const audit = createAuditReader(deps);

  app.get<{ Querystring: Static<typeof AuditQuery> }>(
    '/api/v1/command/audit',
    {
      config: read,
      schema: {
        ...common,
        summary: 'Audit entries, newest first',
        description:
          'Entries of the hash-chained audit log with `compliance_tags` and `entry_hash`, filtered by `action` and ' +
          '`actor_id`; your organization only (the platform operator: every organization, or `tenant_id`). ' +
          '`limit` 1 to 1000 (default 100).',
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => audit.list(principalOf(request), { ...request.query, limit: request.query.limit ?? 100 }),
  );

  app.get(
    '/api/v1/command/audit/verify',
    {
      config: { ...read, platformOnly: true },
      schema: {
        ...common,
        summary: 'Verify the whole audit chain from genesis (platform operator)',
        description:
          'Recomputes every entry hash and link from genesis across every organization. `broken_seq` names the ' +
          'first entry that does not hold. Needs membership of the platform-operator organization besides ' +
          '`command:read` (403 otherwise).',
        response: { 200: Verification, ...errors(401, 403, 429) },
      },
    },
    async () => audit.verify(),
  );
}

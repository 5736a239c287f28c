import { Type } from '@sinclair/typebox';
import { notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { CONSENT_TYPE_PATTERN } from './consent.js';
import { DATA_CLASSES, REQUEST_STATUSES, REQUEST_TYPES } from './schema.js';

// The kernel's error body (`Problem`, registered by the HTTP kernel).
export { errors } from '../../kernel/http/index.js';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const Uuid = Type.String({ format: 'uuid' });
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const RequestTypeSchema = literals(REQUEST_TYPES);
export const RequestStatusSchema = literals(REQUEST_STATUSES);
export const DataClassSchema = literals(DATA_CLASSES);
export const ConsentTypeSchema = Type.String({ pattern: CONSENT_TYPE_PATTERN, description: 'Purpose slug' });

export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 }));
export const Cursor = Type.Optional(
  Type.String({ maxLength: 512, description: 'The `next_cursor` of the previous page: the rows after it' }),
);
export const PageQuerySchema = Type.Object({ limit: Limit, cursor: Cursor });
export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Pass as `cursor` for the next page; null on the last one',
});
/** The page a list route asks its service for (100 rows unless `limit` says otherwise). */
export const pageQuery = (query: { limit?: number | undefined; cursor?: string | undefined }) => ({
  limit: query.limit ?? 100,
  cursor: query.cursor,
});

/** A path id that cannot be a request id is an unknown request (404), never a database error. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export function knownId(id: string): string {
  if (!isUuid(id)) throw notFound('Request not found');
  return id.toLowerCase();
}

export const RequestSchema = Type.Object({
  id: Uuid,
  user_id: Uuid,
  request_type: RequestTypeSchema,
  description: Type.Union([Type.String(), Type.Null()]),
  status: RequestStatusSchema,
  created_at: Timestamp,
  due_at: Timestamp,
  verified_at: NullableTimestamp,
  resolved_at: NullableTimestamp,
  rejection_reason: Type.Union([Type.String(), Type.Null()]),
});

export const PersonalDataSchema = Type.Object({
  format: Type.String({ description: 'Shape version of this document, `svc.personal-data/1`' }),
  generated_at: Timestamp,
  tenant_id: Uuid,
  user_id: Uuid,
  sections: Type.Record(Type.String(), Type.Unknown(), {
    description: 'One entry per personal-data contributor, plus `security_events` (docs/privacy.md)',
  }),
});

export const ConsentSchema = Type.Object({
  consent_type: Type.String(),
  state: literals(['granted', 'withdrawn'] as const),
  granted: Type.Boolean(),
  updated_at: Timestamp,
});

export const ConsentHistorySchema = Type.Object({
  id: Uuid,
  consent_type: Type.String(),
  action: literals(['granted', 'withdrawn'] as const),
  occurred_at: Timestamp,
});

export const PolicySchema = Type.Object({
  data_class: DataClassSchema,
  retention_days: Type.Integer(),
  enabled: Type.Boolean(),
  archive_before_delete: Type.Boolean(),
  legal_hold_exempt: Type.Boolean(),
  notes: Type.Union([Type.String(), Type.Null()]),
  updated_at: NullableTimestamp,
});

export const PreviewSchema = Type.Object({
  generated_at: Timestamp,
  policies: Type.Array(
    Type.Object({
      data_class: DataClassSchema,
      retention_days: Type.Integer(),
      enabled: Type.Boolean(),
      archive_before_delete: Type.Boolean(),
      legal_hold_exempt: Type.Boolean(),
      cutoff: Timestamp,
      records_past_retention: Type.Integer(),
      held_records: Type.Integer(),
      purgeable_records: Type.Integer(),
    }),
  ),
});

import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { ConsentService } from './consent.js';
import {
  ConsentHistorySchema,
  ConsentSchema,
  ConsentTypeSchema,
  Cursor,
  errors,
  Limit,
  NextCursor,
  PageQuerySchema,
  pageQuery,
  Uuid,
} from './route-schemas.js';

const tags = ['privacy'];
const security = [{ bearer: [] }];

const TypeParams = Type.Object({ consent_type: ConsentTypeSchema });
const ChangeResult = Type.Intersect([
  ConsentSchema,
  Type.Object({ changed: Type.Boolean({ description: 'false when the consent already was in this state' }) }),
]);
const AdminQuery = Type.Object({
  user_id: Type.Optional(Uuid),
  consent_type: Type.Optional(ConsentTypeSchema),
  limit: Limit,
  cursor: Cursor,
});
const withUser = <T extends ReturnType<typeof Type.Object>>(schema: T) =>
  Type.Intersect([Type.Object({ user_id: Uuid }), schema]);

/** Part A 4.10 consent ledger: the caller's own consents, and the owner's tenant-wide review. */
export function registerConsentRoutes(app: FastifyInstance, consent: ConsentService): void {
  app.get<{ Querystring: Static<typeof PageQuerySchema> }>(
    '/api/v1/consent',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        security,
        summary: 'The caller’s current consent state per purpose',
        querystring: PageQuerySchema,
        response: {
          200: Type.Object({ consents: Type.Array(ConsentSchema), next_cursor: NextCursor }),
          ...errors(401, 422),
        },
      },
    },
    async (request) => consent.current(principalOf(request), pageQuery(request.query)),
  );

  for (const [verb, summary] of [
    ['grant', 'Grant consent for a purpose (idempotent)'],
    ['withdraw', 'Withdraw consent for a purpose (idempotent)'],
  ] as const) {
    app.post<{ Params: Static<typeof TypeParams> }>(
      `/api/v1/consent/:consent_type/${verb}`,
      {
        config: { auth: 'user', permission: 'identity:self:write' },
        schema: {
          tags,
          security,
          summary,
          params: TypeParams,
          response: { 200: ChangeResult, ...errors(401, 403, 422) },
        },
      },
      async (request) => consent[verb](principalOf(request), request.params.consent_type),
    );
  }

  app.get<{ Querystring: Static<typeof PageQuerySchema> }>(
    '/api/v1/consent/history',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        security,
        summary: 'The caller’s consent changes, newest first (append-only)',
        querystring: PageQuerySchema,
        response: {
          200: Type.Object({ history: Type.Array(ConsentHistorySchema), next_cursor: NextCursor }),
          ...errors(401, 422),
        },
      },
    },
    async (request) => consent.history(principalOf(request), pageQuery(request.query)),
  );

  app.get<{ Querystring: Static<typeof AdminQuery> }>(
    '/api/v1/consent/admin',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        security,
        summary: 'Owner review: current consent state across the organization',
        querystring: AdminQuery,
        response: {
          200: Type.Object({ consents: Type.Array(withUser(ConsentSchema)), next_cursor: NextCursor }),
          ...errors(401, 403, 422),
        },
      },
    },
    async (request) => {
      const { user_id, consent_type } = request.query;
      const filter = { userId: user_id?.toLowerCase(), consentType: consent_type };
      return consent.adminCurrent(principalOf(request), filter, pageQuery(request.query));
    },
  );

  app.get<{ Querystring: Static<typeof AdminQuery> }>(
    '/api/v1/consent/admin/history',
    {
      config: { auth: 'any' },
      schema: {
        tags,
        security,
        summary: 'Owner review: consent changes across the organization, newest first',
        querystring: AdminQuery,
        response: {
          200: Type.Object({ history: Type.Array(withUser(ConsentHistorySchema)), next_cursor: NextCursor }),
          ...errors(401, 403, 422),
        },
      },
    },
    async (request) => {
      const { user_id, consent_type } = request.query;
      const filter = { userId: user_id?.toLowerCase(), consentType: consent_type };
      return consent.adminHistory(principalOf(request), filter, pageQuery(request.query));
    },
  );
}

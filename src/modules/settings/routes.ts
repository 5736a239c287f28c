import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { notFound } from '../../kernel/http/index.js';
import { settingDefinition } from './registry.js';
import type { SettingsService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Problem]));
const Value = Type.Union([Type.Boolean(), Type.Number(), Type.String()]);

const SettingRecord = Type.Object({
  key: Type.String(),
  summary: Type.String(),
  type: Type.Union([Type.Literal('boolean'), Type.Literal('integer'), Type.Literal('string')]),
  default: Value,
  value: Value,
  overridden: Type.Boolean(),
  risk: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
  bounds: Type.Optional(Type.Object({ min: Type.Integer(), max: Type.Integer() })),
  allowed: Type.Optional(Type.Array(Type.String())),
  format: Type.Optional(Type.Literal('instant')),
});
const SettingChange = Type.Object({
  key: Type.String(),
  old_value: Value,
  new_value: Value,
  changed_by: Type.Object({ id: Type.Union([Type.String(), Type.Null()]), type: Type.String() }),
  changed_at: Type.String({ format: 'date-time' }),
});
const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 128 }) });
/** The value is checked against the key's registry entry (400 stating the rule), never coerced. */
const ChangeBody = Type.Object({ value: Type.Unknown() });
const LegacySettings = Type.Object({ ciam_signup_enabled: Type.Boolean() });
const LegacyBody = Type.Object({ ciam_signup_enabled: Type.Unknown() });

const admin = { auth: 'any', permission: 'tenant:manage' } as const;
const security = [{ bearer: [] }];

/** Part A 4.8: the typed organization-settings registry, and the legacy settings pair. */
export function registerSettingsRoutes(app: FastifyInstance, deps: { settings: SettingsService }): void {
  const { settings } = deps;

  app.get(
    '/api/v1/tenants/config/schema',
    {
      config: admin,
      schema: {
        tags: ['settings'],
        summary: 'Every tenant-editable setting with its type, default, value and bounds',
        security,
        response: { 200: Type.Array(SettingRecord), ...errors(401, 403) },
      },
    },
    async (request) => settings.schema(principalOf(request)),
  );

  app.patch<{ Params: Static<typeof KeyParams>; Body: Static<typeof ChangeBody> }>(
    '/api/v1/tenants/config/:key',
    {
      config: admin,
      schema: {
        tags: ['settings'],
        summary: 'Change one setting',
        description: '404 for an unknown key; 400 stating the violated type, bound or allowed set.',
        security,
        params: KeyParams,
        body: ChangeBody,
        response: { 200: SettingRecord, ...errors(400, 401, 403, 404, 422) },
      },
      // An unknown key is 404 whatever the body (its validation comes after this hook).
      preValidation: async (request: FastifyRequest<{ Params: Static<typeof KeyParams> }>) => {
        if (!settingDefinition(request.params.key)) throw notFound('Unknown setting');
      },
    },
    async (request) => settings.change(principalOf(request), request.params.key, request.body.value),
  );

  app.get<{ Params: Static<typeof KeyParams> }>(
    '/api/v1/tenants/config/:key/history',
    {
      config: admin,
      schema: {
        tags: ['settings'],
        summary: 'Changes of one setting, newest first (who, old, new, when)',
        security,
        params: KeyParams,
        response: { 200: Type.Array(SettingChange), ...errors(401, 403, 404) },
      },
    },
    async (request) => settings.history(principalOf(request), request.params.key),
  );

  const legacy = async (request: Parameters<typeof principalOf>[0]) => {
    const record = (await settings.schema(principalOf(request))).find((r) => r.key === 'auth.ciam_signup_enabled');
    return { ciam_signup_enabled: record?.value === true };
  };

  app.get(
    '/api/v1/tenants/settings',
    {
      config: admin,
      schema: {
        tags: ['settings'],
        summary: 'Legacy: customer self-registration switch (auth.ciam_signup_enabled)',
        security,
        response: { 200: LegacySettings, ...errors(401, 403) },
      },
    },
    async (request) => legacy(request),
  );

  app.patch<{ Body: Static<typeof LegacyBody> }>(
    '/api/v1/tenants/settings',
    {
      config: admin,
      schema: {
        tags: ['settings'],
        summary: 'Legacy: change customer self-registration (recorded like PATCH /tenants/config/{key})',
        security,
        body: LegacyBody,
        response: { 200: LegacySettings, ...errors(400, 401, 403, 422) },
      },
    },
    async (request) => {
      const record = await settings.change(
        principalOf(request),
        'auth.ciam_signup_enabled',
        request.body.ciam_signup_enabled,
      );
      return { ciam_signup_enabled: record.value === true };
    },
  );
}

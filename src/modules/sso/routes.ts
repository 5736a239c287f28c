import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  AllowedDomainsField,
  CONFIGURED_ANSWER,
  enabledField,
  SSO_ADMIN_ACCESS,
  sendConfigured,
  ssoAdminPolicy,
  ssoAdminSchema,
} from './common.js';
import { CONNECTION_CHANGE } from './connection-changes.js';
import type { ConnectionTest } from './connection-test.js';
import type { EnforcementService } from './enforcement.js';
import type { OidcConfigService } from './oidc-config.js';

const Timestamp = Type.String({ format: 'date-time' });
/** RFC 6749 appendix A.1 and A.2: client id and secret are visible ASCII (VSCHAR). */
const Vschar = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[\\x20-\\x7E]+$', description });
/** RFC 6749 section 3.3 scope-token. */
const ScopeToken = Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' });

const ConfigBody = Type.Object(
  {
    issuer: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The identity provider’s issuer URL, exactly as its discovery document names it (https, port 443)',
    }),
    client_id: Vschar(255, 'The client id this organization registered at its identity provider'),
    client_secret: Type.Optional(
      Vschar(
        1024,
        'Required on first configuration and whenever issuer or client_id change; omitted otherwise, the stored ' +
          'secret is kept. Never answered.',
      ),
    ),
    scopes: Type.Optional(
      Type.Array(ScopeToken, {
        minItems: 1,
        maxItems: 32,
        description: 'Requested scopes; must include `openid`. Default `openid email profile`',
      }),
    ),
    allowed_domains: AllowedDomainsField,
    enabled: enabledField('turns enforcement off'),
  },
  { additionalProperties: false },
);

const ConfigView = Type.Object({
  issuer: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Boolean({
    description:
      'Whether a client secret is stored (sealed; it is never answered). false only on a connection an IAM manifest ' +
      'scaffolded: it stays disabled until a PUT gives it its secret',
  }),
  display_name: Type.Union([Type.String(), Type.Null()], {
    description: 'The display name of the manifest that scaffolded the connection; null otherwise',
  }),
  default_role: Type.Union([Type.String(), Type.Null()], {
    description: 'The role of people this connection makes members (set by a manifest; kept by PUT); null: `member`',
  }),
  scopes: Type.Array(Type.String()),
  allowed_domains: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  last_test: Type.Union([Type.Object({ tested_at: Timestamp, ok: Type.Boolean() }), Type.Null()], {
    description:
      'The last connection test of this issuer, client id and secret; null when untested since one of them changed',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const TestReport = Type.Object({
  ok: Type.Boolean({ description: 'true when every check passed' }),
  tested_at: Timestamp,
  checks: Type.Array(
    Type.Object({
      name: Type.Union([Type.Literal('discovery'), Type.Literal('jwks'), Type.Literal('credentials')]),
      ok: Type.Boolean(),
      detail: Type.String(),
    }),
  ),
});

const Enforcement = Type.Object({ required: Type.Boolean() }, { additionalProperties: false });

const PATH = '/api/v1/tenants/sso';
const ADMIN = `${SSO_ADMIN_ACCESS}404 while no identity provider is configured: SSO is dormant then. `;

/** Part A 4.6: the organization's OIDC identity provider, its connection test, and SSO enforcement. */
export function registerSsoRoutes(
  app: FastifyInstance,
  deps: { oidc: OidcConfigService; connectionTest: ConnectionTest; enforcement: EnforcementService },
): void {
  const { oidc, connectionTest, enforcement } = deps;

  app.get(
    `${PATH}/oidc`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'The organization’s OIDC identity provider (never the client secret)',
        description: ADMIN,
        response: { 200: ConfigView, ...errors(401, 403, 404) },
      },
    },
    async (request) => oidc.get(principalOf(request)),
  );

  app.put<{ Body: Static<typeof ConfigBody> }>(
    `${PATH}/oidc`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Configure or replace the OIDC identity provider',
        description:
          `${CONNECTION_CHANGE}Needs \`tenant:manage\` and a plan with Enterprise SSO (403 naming the plan ` +
          `otherwise). ${CONFIGURED_ANSWER} 422 names the field: issuer not https on 443 with a ` +
          'public host name, scopes without `openid`, a malformed domain, or no client secret on first ' +
          'configuration or with a changed issuer or client_id, or none while enabling a connection a manifest ' +
          'scaffolded without one. Changing issuer, client id or secret resets `last_test` and turns enforcement ' +
          'off; `enabled: false` turns it off too.',
        body: ConfigBody,
        response: { 200: ConfigView, 201: ConfigView, ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => sendConfigured(reply, await oidc.put(principalOf(request), request.body)),
  );

  app.delete(
    `${PATH}/oidc`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Remove the OIDC identity provider: SSO is dormant again and no longer required',
        description:
          `${ADMIN}${CONNECTION_CHANGE}Removing the connection also turns enforcement off, so members can sign ` +
          'in again.',
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await oidc.remove(principalOf(request));
      return reply.code(204).send();
    },
  );

  app.post(
    `${PATH}/oidc/test`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Test the connection: discovery, key set and client credentials',
        description:
          `${ADMIN}403 on a plan without Enterprise SSO. An upstream failure is a result (200 with ` +
          '`ok: false` and the failing check’s detail), never an error of this service; the credentials check of a ' +
          'connection without a secret (a manifest’s scaffold) fails as not run. 429 with `Retry-After` ' +
          'past 10 tests a minute per organization.',
        response: { 200: TestReport, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => connectionTest.test(principalOf(request)),
  );

  app.get(
    `${PATH}/enforcement`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Whether the organization requires SSO',
        description: ADMIN,
        response: { 200: Enforcement, ...errors(401, 403, 404) },
      },
    },
    async (request) => enforcement.get(principalOf(request)),
  );

  app.put<{ Body: Static<typeof Enforcement> }>(
    `${PATH}/enforcement`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Require SSO, or stop requiring it',
        description:
          `${ADMIN}${CONNECTION_CHANGE}Once required, password, magic-link and passkey sign-in answer 403 to ` +
          'members who are not owners (owners pass: break-glass). Requiring needs a plan with Enterprise SSO ' +
          '(403), an enabled connection and a passed connection test of its current configuration (409); turning ' +
          'it off is always allowed.',
        body: Enforcement,
        response: { 200: Enforcement, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) => enforcement.put(principalOf(request), request.body),
  );
}

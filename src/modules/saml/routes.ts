import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  AllowedDomainsField,
  CONFIGURED_ANSWER,
  CONNECTION_CHANGE,
  enabledField,
  SSO_ADMIN_ACCESS,
  sendConfigured,
  ssoAdminPolicy,
  ssoAdminSchema,
} from '../sso/index.js';
import { MAX_CERTIFICATES } from './certificates.js';
import type { SamlConnectionService } from './connection.js';

const Timestamp = Type.String({ format: 'date-time' });
const HttpsUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

const ConfigBody = Type.Object(
  {
    idp_entity_id: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The identity provider’s entity id: the Issuer of its assertions, compared exactly',
    }),
    sso_url: HttpsUrl('Its SingleSignOnService for the HTTP-Redirect binding (https)'),
    slo_url: Type.Optional(
      Type.Union([HttpsUrl('Its SingleLogoutService for the HTTP-Redirect binding (https)'), Type.Null()], {
        description: 'Omitted or null: single logout is off (`/slo` answers 404)',
      }),
    ),
    idp_certificates: Type.Array(Type.String({ minLength: 1, maxLength: 16384 }), {
      minItems: 1,
      maxItems: MAX_CERTIFICATES,
      description:
        'Its signing certificates, PEM or bare base64 (as in metadata); an assertion must be signed by one. Two ' +
        'during a key rotation.',
    }),
    allowed_domains: AllowedDomainsField,
    enabled: enabledField('stops sign-in and logout'),
  },
  { additionalProperties: false },
);

const ConfigView = Type.Object({
  idp_entity_id: Type.String(),
  sso_url: Type.String(),
  slo_url: Type.Union([Type.String(), Type.Null()]),
  idp_certificates: Type.Array(Type.String(), { description: 'PEM' }),
  certificates: Type.Array(
    Type.Object({
      fingerprint_sha256: Type.String(),
      subject: Type.String(),
      not_before: Timestamp,
      not_after: Timestamp,
    }),
    { description: 'One per certificate, in the same order: to tell them apart and see one expire' },
  ),
  allowed_domains: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const ServiceProviderView = Type.Object({
  entity_id: Type.String({ description: 'This service’s entity id for the organization (the metadata URL)' }),
  acs_url: Type.String({ description: 'Assertion Consumer Service, HTTP-POST binding' }),
  slo_url: Type.String({ description: 'Single logout, HTTP-Redirect binding' }),
  metadata_url: Type.String({ description: 'The service provider metadata, for providers that import it' }),
});

/** IdP metadata media types: SAML metadata 4.1.1 registers its own; generic XML is what tools send. */
const XML_TYPES = ['application/samlmetadata+xml', 'application/xml', 'text/xml'];

const PATH = '/api/v1/tenants/sso/saml';
const ADMIN = `${SSO_ADMIN_ACCESS}404 while no SAML identity provider is configured: SAML is dormant then. `;
const PUT_ANSWERS =
  `${CONNECTION_CHANGE}Needs a plan with Enterprise SSO (403 naming the plan otherwise). ` + CONFIGURED_ANSWER;

/** Part A 4.6: the organization's SAML 2.0 identity provider. */
export function registerSamlAdminRoutes(app: FastifyInstance, deps: { connection: SamlConnectionService }): void {
  const { connection } = deps;

  app.get(
    PATH,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'The organization’s SAML identity provider',
        description: ADMIN,
        response: { 200: ConfigView, ...errors(401, 403, 404) },
      },
    },
    async (request) => connection.get(principalOf(request)),
  );

  app.put<{ Body: Static<typeof ConfigBody> }>(
    PATH,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Configure or replace the SAML identity provider',
        description:
          `${PUT_ANSWERS} 422 names the field: an entity id with white space, an endpoint that is not an absolute ` +
          'https URL (or carries credentials or a fragment), a certificate that is not X.509, more than 5 ' +
          'certificates, a malformed domain, an unknown field.',
        body: ConfigBody,
        response: { 200: ConfigView, 201: ConfigView, ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => sendConfigured(reply, await connection.put(principalOf(request), request.body)),
  );

  app.delete(
    PATH,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'Remove the SAML identity provider: SAML is dormant again',
        description: `${ADMIN}${CONNECTION_CHANGE}`,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await connection.remove(principalOf(request));
      return reply.code(204).send();
    },
  );

  app.get(
    `${PATH}/sp`,
    {
      config: ssoAdminPolicy,
      schema: {
        ...ssoAdminSchema,
        summary: 'What to register at the identity provider: entity id, ACS and SLO URLs',
        description:
          'Needs `tenant:manage`. Answered before the identity provider is configured, on a plan with Enterprise ' +
          'SSO (403 naming the plan otherwise); once configured, on any plan.',
        response: { 200: ServiceProviderView, ...errors(401, 403) },
      },
    },
    async (request) => connection.serviceProvider(principalOf(request)),
  );

  // The metadata document is the body itself, as identity providers publish it: an XML parser in a scope of its own.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(XML_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.post<{ Body: string }>(
      `${PATH}/import-metadata`,
      {
        config: ssoAdminPolicy,
        schema: {
          ...ssoAdminSchema,
          summary: 'Configure the SAML identity provider from its metadata',
          description:
            'The body is the identity provider’s SAML 2.0 metadata (`application/samlmetadata+xml`, ' +
            '`application/xml` or `text/xml`; other types 415; at most 1 MB). Takes its entity id, HTTP-Redirect ' +
            'SingleSignOnService and SingleLogoutService and signing certificates; `allowed_domains` and ' +
            `\`enabled\` keep their current values (defaults on a new connection). ${PUT_ANSWERS} 422 when the ` +
            'document has a DTD, is not well-formed, or lacks an entity id, a redirect SingleSignOnService or a ' +
            'signing certificate. Its own signature is not checked.',
          consumes: XML_TYPES,
          body: Type.String({ description: 'The metadata XML' }),
          response: { 200: ConfigView, 201: ConfigView, ...errors(401, 403, 415, 422) },
        },
      },
      async (request, reply) =>
        sendConfigured(reply, await connection.importMetadata(principalOf(request), request.body)),
    );
  });
}

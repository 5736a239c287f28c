import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { type CustomRoleEntry, catalogDocument } from '../../kernel/authz/catalog.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import type { Keyring } from '../../kernel/crypto/index.js';
import { errors } from '../../kernel/http/index.js';

/**
 * RFC 9116 security.txt (Part A 4.13). `Policy` appears only when a public site is configured. Expires is
 * kept under a year ahead, as the RFC recommends.
 */
export function securityTxt(config: Config, now: Date): string {
  const lines = [
    `Contact: ${config.securityContact}`,
    `Expires: ${addMs(now, days(180))
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: en',
    `Canonical: ${config.baseUrl}/.well-known/security.txt`,
  ];
  if (config.publicSiteUrl) lines.push(`Policy: ${config.publicSiteUrl.replace(/\/$/, '')}/security-policy`);
  return `${lines.join('\n')}\n`;
}

const Jwk = Type.Object({
  kty: Type.String(),
  kid: Type.String(),
  alg: Type.String(),
  use: Type.String(),
  n: Type.String(),
  e: Type.String(),
});

export function registerMetadataRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    keyring: Keyring;
    clock: Clock;
    /**
     * The custom roles of the caller's organization when the request carries a credential (401 when it does
     * not resolve), none for an anonymous caller (Part A 5.9: the catalogue lists them beside the system roles).
     */
    customRolesOf?: (request: FastifyRequest) => Promise<readonly CustomRoleEntry[]>;
  },
) {
  const { config, keyring, clock } = deps;

  app.get(
    '/.well-known/jwks.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['metadata'],
        summary: 'Public signing keys (previous, active, staged next); select by kid',
        response: { 200: Type.Object({ keys: Type.Array(Jwk, { maxItems: 3 }) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return keyring.jwks();
    },
  );

  app.get(
    '/.well-known/security.txt',
    {
      config: { auth: 'public' },
      schema: { tags: ['metadata'], summary: 'Security contact (RFC 9116)', produces: ['text/plain'] },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(securityTxt(config, clock.now())),
  );

  app.get(
    '/api/v1/authz/catalog',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['metadata'],
        summary: 'The role and permission catalogue',
        description:
          "Public. With a credential (bearer token or API key) it also lists the caller's organization's custom roles (`custom: true`); a credential that does not resolve answers 401.",
        response: {
          200: Type.Object({
            catalogue_version: Type.String({
              description: 'Changes whenever anything in the catalogue changes; approvals bind to it (Part B 9.4)',
            }),
            version: Type.String({ description: 'The same value as catalogue_version' }),
            permissions: Type.Array(
              Type.Object({
                code: Type.String(),
                read_only: Type.Boolean(),
                risk: Type.Integer({
                  minimum: 0,
                  maximum: 100,
                  description:
                    "Compared with an agent's risk_ceiling: 0-30 reads, 31-59 one record, 60-79 part of the organization, 80-100 organization-wide, kill switches, autonomy, operator plane",
                }),
                description: Type.String(),
              }),
            ),
            separation_of_duties: Type.Array(Type.Object({ id: Type.String(), description: Type.String() }), {
              description: 'Rules that keep one person from holding conflicting roles (docs/organizations.md)',
            }),
            roles: Type.Array(
              Type.Object({
                code: Type.String(),
                name: Type.String(),
                description: Type.String(),
                grantable: Type.Boolean(),
                read_only: Type.Boolean(),
                custom: Type.Boolean({ description: "One of the caller's organization's custom roles" }),
                permissions: Type.Array(Type.String()),
              }),
            ),
          }),
          ...errors(401, 403),
        },
      },
    },
    async (request) => catalogDocument(deps.customRolesOf ? await deps.customRolesOf(request) : []),
  );

  app.get('/api/v1/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}

import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DpopVerifier } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { deliverSignIn, SignInHeaders, SignInResultSchema, signInContext, UseCookie } from '../sign-in/index.js';
import type { MagicLinkService } from './service.js';

const RequestBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320, description: 'Email address of the member' }),
  tenant_slug: Type.String({ minLength: 1, maxLength: 255, description: 'The organization to sign in to' }),
});
const VerifyBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512, description: 'The token of the emailed link' }),
  use_cookie: UseCookie,
});
const Accepted = Type.Object({ status: Type.Literal('accepted') });

/** Part A 4.4: emailed sign-in links. */
export function registerMagicLinkRoutes(
  app: FastifyInstance,
  deps: { magicLinks: MagicLinkService; dpop: DpopVerifier },
): void {
  const { magicLinks, dpop } = deps;

  app.post<{ Body: Static<typeof RequestBody> }>(
    '/api/v1/auth/magic-link',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['magic-link'],
        summary: 'Mail a sign-in link',
        description:
          'Always 202 with the same body and no rate headers, whether or not the address is a member, the ' +
          'organization exists or allows magic links. A member gets a link valid about 15 minutes, usable once; ' +
          'it replaces their outstanding one. Issuance is capped silently per address and per source IP.',
        body: RequestBody,
        response: { 202: Accepted, ...errors(422) },
      },
    },
    async (request, reply) => {
      // Not awaited: the look-up and the mail happen after the answer (enumeration-safe, Part A 7).
      magicLinks.requestLink({ email: request.body.email, tenantSlug: request.body.tenant_slug }, request.ip);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post<{ Body: Static<typeof VerifyBody> }>(
    '/api/v1/auth/magic-link/verify',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['magic-link'],
        summary: 'Sign in with an emailed link',
        description:
          'Answers a token pair (amr `mlink`), or `{mfa_required: true, mfa_token}` when the account has TOTP ' +
          'enrolled: complete it with `POST /mfa/challenge`. 401 `Invalid or expired link` alike for an unknown, ' +
          'expired, used or superseded link, an organization that turned magic links off and an account or ' +
          'membership no longer active; the link is used up either way. 403 when the organization requires SSO ' +
          '(owners pass as break-glass). A DPoP proof binds the tokens to its key.',
        headers: SignInHeaders,
        body: VerifyBody,
        response: { 200: SignInResultSchema, ...errors(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const context = await signInContext(request, dpop);
      const { result } = await magicLinks.verify(request.body.token, context);
      return deliverSignIn(reply, result, request.body.use_cookie);
    },
  );
}

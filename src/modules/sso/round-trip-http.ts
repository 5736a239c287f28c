import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DpopVerifier } from '../../kernel/auth/index.js';
import {
  deliverSignIn,
  noStore,
  type RequestContext,
  SignInHeaders,
  type SignInResult,
  signInContext,
  UseCookie,
} from '../sign-in/index.js';

/**
 * The HTTP side that every federated round trip shares: social login (its module), OIDC SSO (this module) and
 * SAML SSO (its module). What a flow tells the browser differs by flow, so those descriptions are passed in.
 */

/** The body of a start: the organization to sign in to, by its slug. */
export const TenantSlugBody = Type.Object({
  tenant_slug: Type.String({ minLength: 1, maxLength: 255, description: 'The organization to sign in to' }),
});

/** A start's answer; `description` says where the browser is sent. */
export const authorizationUrlAnswer = (description: string) =>
  Type.Object({ authorization_url: Type.String({ description }) });

/** An organization's own endpoint (its callback, ACS, metadata, logout), named by the organization's id. */
export const TenantParam = Type.Object({ tenant: Type.String({ description: 'The organization’s id (UUID)' }) });

/** An OAuth 2.0 redirect back: anything the provider adds is ignored; the checks read only these. */
export const ProviderCallbackQuery = Type.Object(
  { code: Type.Optional(Type.String()), state: Type.Optional(Type.String()), error: Type.Optional(Type.String()) },
  { additionalProperties: true },
);

/** The body of a `…/complete`: the one-time code the callback sent to the app as `codeParameter`. */
export const completionBody = (codeParameter: string) =>
  Type.Object({
    code: Type.String({
      minLength: 1,
      maxLength: 512,
      description: `The \`${codeParameter}\` the callback sent to the app`,
    }),
    use_cookie: UseCookie,
  });

/** The headers of a `…/complete`: those of every sign-in, a DPoP proof. */
export const CompletionHeaders = SignInHeaders;

/**
 * A `…/complete`: redeems the one-time code for what password login returns (DPoP-bound when a proof came), and
 * answers it as every sign-in does.
 */
export async function answerCompletion(
  request: FastifyRequest<{ Body: { code: string; use_cookie?: boolean | undefined } }>,
  reply: FastifyReply,
  dpop: DpopVerifier,
  redeem: (code: string, context: RequestContext) => Promise<SignInResult>,
) {
  const context = await signInContext(request, dpop);
  const result = await redeem(request.body.code, context);
  return deliverSignIn(reply, result, request.body.use_cookie);
}

/**
 * Sends the browser on from a round trip's endpoint. The target may carry a one-time code or a protocol message:
 * no cache keeps it, and the next page is not told where the browser came from.
 */
export function redirectBrowser(reply: FastifyReply, target: string, status: 302 | 303) {
  return noStore(reply).header('referrer-policy', 'no-referrer').redirect(target, status);
}

import type { FastifyRequest } from 'fastify';
import { DpopError, type DpopVerifier } from '../../kernel/auth/index.js';
import { badRequest } from '../../kernel/http/index.js';

/** Where a sign-in comes from, as every first factor passes it on. */
export interface RequestContext {
  ip: string;
  userAgent?: string | undefined;
  /** Thumbprint of the key of a verified DPoP proof sent with a sign-in: the tokens are bound to it. */
  dpopJkt?: string | undefined;
}

/**
 * Part A 5.4: a DPoP proof sent with any sign-in binds the issued tokens to its key; a broken proof is
 * refused (400), never ignored. Answers the key's thumbprint, or undefined when no proof was sent.
 */
export async function signInProofKey(request: FastifyRequest, dpop: DpopVerifier): Promise<string | undefined> {
  if (request.headers.dpop === undefined) return undefined;
  try {
    const { jkt } = await dpop.verify({
      proof: request.headers.dpop,
      method: request.method,
      url: dpop.urlOf(request.url),
    });
    return jkt;
  } catch (error) {
    if (error instanceof DpopError) throw badRequest(`Invalid DPoP proof: ${error.message}`);
    throw error;
  }
}

/** What every sign-in route passes to its service: source address, user agent and the DPoP key, if any. */
export async function signInContext(request: FastifyRequest, dpop: DpopVerifier): Promise<RequestContext> {
  return {
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
    dpopJkt: await signInProofKey(request, dpop),
  };
}

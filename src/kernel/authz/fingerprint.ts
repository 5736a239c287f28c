import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../crypto/secrets.js';
import { canonicalJson } from '../events/canonical-json.js';

/** One action, as approvals, manifest asks, elevations and MCP parks bind to it (ARCHITECTURE.md, Part B). */
export interface Action {
  method: string;
  /** The route template (`/api/v1/members/:membership_id`), never the concrete path. */
  route: string;
  params: unknown;
  body: unknown;
}

/**
 * SHA-256 (hex) over the JCS (RFC 8785) canonical JSON of exactly `{method, route, params, body}`: the same action
 * gives the same fingerprint whatever order its keys came in, and any change to any field gives another. A
 * missing body or missing params count as `null` and `{}`, so "no body" has one spelling.
 */
export function actionFingerprint(action: Action): string {
  return sha256Hex(
    canonicalJson({
      method: action.method,
      route: action.route,
      params: action.params ?? {},
      body: action.body ?? null,
    }),
  );
}

/** The fingerprint of the request being served: its method, route template, path parameters and parsed body. */
export function requestFingerprint(request: FastifyRequest): string {
  return actionFingerprint({
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    params: request.params,
    body: request.body,
  });
}

export { type CursorKey, decodeCursor, type PageQuery, pageOf } from './cursor.js';
export {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
  OAuthError,
  ScimError,
  unauthorized,
  unprocessable,
} from './errors.js';
export { isComparableInstant } from './instant.js';
export { jsonDepth, MAX_JSON_DEPTH, parseJsonBody } from './json-body.js';
export { BODY_LIMIT_BYTES, describeValidation, registerHttpKernel } from './plugin.js';
export { errors, Problem } from './problem.js';
export { registerSecurityHeaders, securityHeadersOf } from './security-headers.js';
export { MALFORMED_TEXT, malformedTextAt } from './text-rule.js';
export { type TrustProxy, trustProxyOf } from './trust-proxy.js';
export { schemaController } from './validation.js';

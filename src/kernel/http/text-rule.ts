import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';

/** The keyword of the refusal below, for error handlers that answer in their own format (SCIM: invalidValue). */
export const MALFORMED_TEXT = 'malformedText';

const MESSAGE = 'must not contain NUL characters or unpaired surrogates';
/** A high surrogate without its low half, or a low surrogate without its high half (code units: no `u` flag). */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = String.fromCharCode(0);

const isMalformed = (text: string) => text.includes(NUL) || UNPAIRED_SURROGATE.test(text);

/** Whether any string or property name in `value` is malformed text: the walk of every request, building nothing. */
function holdsMalformedText(value: unknown): boolean {
  if (typeof value === 'string') return isMalformed(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsMalformedText);
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    if (isMalformed(name) || holdsMalformedText((value as Record<string, unknown>)[name])) return true;
  }
  return false;
}

/**
 * The JSON pointer (RFC 6901) of the first string, or property name, in `value` that is malformed text, or
 * undefined. Bodies are at most 32 levels deep (json-body.ts), so the recursion is bounded.
 */
export function malformedTextAt(value: unknown, pointer = ''): { pointer: string; inName: boolean } | undefined {
  if (typeof value === 'string') return isMalformed(value) ? { pointer, inName: false } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = malformedTextAt(value[index], `${pointer}/${index}`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [name, member] of Object.entries(value)) {
    if (isMalformed(name)) return { pointer, inName: true };
    const found = malformedTextAt(member, `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found) return found;
  }
  return undefined;
}

const PARTS = [
  ['params', 'params'],
  ['querystring', 'query'],
  ['body', 'body'],
] as const satisfies ReadonlyArray<readonly [string, keyof FastifyRequest]>;

/** A failure shaped like Fastify's schema validation errors, so every error handler answers it as one. */
function malformedTextError(context: string, at: { pointer: string; inName: boolean }) {
  const error = new Error(`${context}: ${MESSAGE}`) as Error & Record<string, unknown>;
  error.statusCode = 400;
  error.code = 'FST_ERR_VALIDATION';
  error.validationContext = context;
  error.validation = [
    {
      keyword: MALFORMED_TEXT,
      instancePath: at.pointer,
      params: {},
      message: at.inName ? 'has a property name with a NUL character or an unpaired surrogate' : MESSAGE,
    },
  ];
  return error;
}

// A callback hook, not an async one: no promise and no extra turn of the event loop on every request.
const refuseMalformedText: preValidationHookHandler = (request, _reply, done) => {
  for (const [context, part] of PARTS) {
    if (!holdsMalformedText(request[part])) continue;
    const found = malformedTextAt(request[part]);
    if (found) return done(malformedTextError(context, found));
  }
  done();
};

/**
 * Issue 17: one rule for every route, schema or not. U+0000 cannot be stored by PostgreSQL in `text` or `jsonb`,
 * and an unpaired surrogate is not Unicode text (RFC 8259 section 8.2) and breaks `jsonb` too: either reaching the
 * database was a 500. Any string or property name of the path parameters, query or body carrying one is refused
 * as a validation failure (422 naming the field; SCIM answers its own 400 `invalidValue`), before anything reads
 * it. The walk runs as the route's last preValidation hook: after the guard (a stranger still gets 401, a dormant
 * surface 404) and right before schema validation, so the request flow is unchanged. Other control characters
 * are refused where the spec forbids them (names), by the field's own rule: elsewhere (descriptions, notes) tabs
 * and newlines are text.
 */
export function registerTextRule(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const own = route.preValidation;
    route.preValidation = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), refuseMalformedText];
  });
}

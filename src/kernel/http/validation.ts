import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
/** What a validator compiler receives per route and part (the package's typings describe it loosely). */
type RouteDefinition = { httpPart?: string };
type Compile = (route: RouteDefinition) => unknown;
type Options = { customOptions?: Record<string, unknown> } & Record<string, unknown>;

const AJV_OPTIONS = { allErrors: false, removeAdditional: false } as const;

/**
 * Query strings, path parameters and headers are text, so their values are coerced to the schema's types
 * (`?limit=5` is the integer 5, a repeated parameter an array). A JSON body is typed already: coercing it would
 * accept `"true"` or `1` where a boolean is required (a consent checkbox) or store `42` as the name "42", so
 * bodies are validated strictly.
 */
/**
 * One pool for the process: it keys its compilers by the shared schemas and the options, so a route reuses the
 * compiler of the routes before it. Fastify asks for a validator compiler again for every route once any shared
 * schema was added (`addSchema`); a pool made per call would build two new Ajv instances for each route.
 */
const pool = AjvCompiler() as unknown as (schemas: Record<string, unknown>, options: Options) => Compile;

function buildValidator(externalSchemas: Record<string, unknown>, options: Options = {}): Compile {
  const custom = { ...options.customOptions, ...AJV_OPTIONS };
  const coercing = pool(externalSchemas, { ...options, customOptions: { ...custom, coerceTypes: 'array' } });
  const strict = pool(externalSchemas, { ...options, customOptions: { ...custom, coerceTypes: false } });
  return (route) => (route.httpPart === 'body' ? strict(route) : coercing(route));
}

export const schemaController = {
  compilersFactory: { buildValidator },
} as unknown as SchemaController;

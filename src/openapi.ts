import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { buildApp, createDeps } from './app.js';
import type { Config } from './config.js';

/**
 * The OpenAPI document of the service as `config` builds it, without serving: the routes over an in-memory database
 * (the document needs the routes, not data). `svc openapi` writes it; the console's API types are generated from it
 * (console/generate-api-types.ts).
 */
export async function openApiDocument(config: Config): Promise<unknown> {
  const pglite = new PGlite();
  const deps = await createDeps(
    { ...config, databaseUrl: undefined, databaseSchema: 'public', logLevel: 'silent', secretKey: randomBytes(32) },
    { pglite },
  );
  try {
    const app = await buildApp(deps);
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await deps.close();
    await pglite.close();
  }
}

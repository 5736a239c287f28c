import { renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { openApiDocument } from '../src/openapi.js';

// The console's types of the API (console/src/api-schema.d.ts) are generated from the service's own OpenAPI document,
// so a screen never restates a shape the routes declare. `npm run typecheck` generates them first: a screen reading a
// field a route no longer answers fails the type check. The file is not kept in git (it is the routes' schemas again).

const API_TYPES_FILE = fileURLToPath(new URL('./src/api-schema.d.ts', import.meta.url));

const HEADER = `// Generated from the service's OpenAPI document by console/generate-api-types.ts (npm run console:api-types).
// Do not edit: change the route's schema and generate again.

`;

/** The API types as the routes declare them now (a fixed configuration: the document's URLs do not vary). */
async function apiTypes(): Promise<string> {
  const document = await openApiDocument(loadConfig({ SVC_ENV: 'development' }));
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}

// Written beside and renamed into place: type checks running side by side never read a half-written file.
const next = `${API_TYPES_FILE}.${process.pid}`;
writeFileSync(next, await apiTypes());
renameSync(next, API_TYPES_FILE);

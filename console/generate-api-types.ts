import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { openApiDocument } from '../src/openapi.js';

// The console's types of the API (console/src/api-schema.d.ts) are generated from the service's own OpenAPI document,
// so a screen never restates a shape the routes declare: `npm run console:api-types` writes them after a route's
// schema changed, and test/e2e/console-api-types.test.ts fails while the file is not what the routes declare.

export const API_TYPES_FILE = fileURLToPath(new URL('./src/api-schema.d.ts', import.meta.url));

const HEADER = `// Generated from the service's OpenAPI document by console/generate-api-types.ts (npm run console:api-types).
// Do not edit: change the route's schema and generate again.

`;

/** The API types as the routes declare them now (a fixed configuration: the document's URLs do not vary). */
export async function apiTypes(): Promise<string> {
  const document = await openApiDocument(loadConfig({ SVC_ENV: 'development' }));
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}

/** The file as it is checked in. */
export const checkedInApiTypes = (): string => readFileSync(API_TYPES_FILE, 'utf8');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(API_TYPES_FILE, await apiTypes());
  process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
}

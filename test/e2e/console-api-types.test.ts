import { describe, expect, it } from 'vitest';
import { apiTypes, checkedInApiTypes } from '../../console/generate-api-types.js';

// The console's API types are the routes' own schemas (console/generate-api-types.ts): a route whose schema changed
// without `npm run console:api-types` fails here, before a screen can read a field the route no longer answers.
describe('console API types', () => {
  it('are what the OpenAPI document declares now', async () => {
    const generated = await apiTypes();
    expect(generated).toContain('"/api/v1/tenants/api-keys": {');
    expect(
      checkedInApiTypes() === generated,
      'console/src/api-schema.d.ts is stale: run npm run console:api-types',
    ).toBe(true);
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

/** What the service writes to its log about each request (its own file: the service logs at info here). */

const lines: string[] = [];
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ LOG_LEVEL: 'info' }, { onLogLine: (line) => lines.push(line) });
});
afterAll(async () => {
  await svc?.close();
});

describe('request log', () => {
  it('logs the path of each request without its query string, which can carry secrets', async () => {
    lines.length = 0;
    const secret = 'eyJhbGciOiJSUzI1NiJ9.secret-hint.signature';
    await request(`${svc.url}/api/v1/oauth/logout?id_token_hint=${secret}&state=s`);
    await request(`${svc.url}/api/v1/me`);
    const urls = lines.map((line) => JSON.parse(line).req?.url).filter(Boolean);
    expect(urls).toEqual(['/api/v1/oauth/logout?[redacted]', '/api/v1/me']);
    expect(lines.join('\n')).not.toContain('secret-hint');
  });
});

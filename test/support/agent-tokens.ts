import { request } from './http.js';

/** The task block of a task token (Part B 2.1). */
export interface TaskBlock {
  task: string;
  permissions: string[];
  budget: number;
}

/**
 * `POST /api/v1/agents/token` with an agent credential over HTTP: the raw response (status, headers, body), so
 * tests can check refusals as well. `body` adds a `task` block or overrides any field; `headers` carries a
 * `DPoP` proof or `X-Forwarded-For`.
 */
export function mintAgentToken(
  svc: { url: string },
  credential: string,
  body: { task?: TaskBlock | Record<string, unknown> } & Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return request(`${svc.url}/api/v1/agents/token`, { json: { credential, ...body }, headers });
}

/** Mints and answers the access token, failing loudly when the mint is refused. */
export async function agentAccessToken(
  svc: { url: string },
  credential: string,
  body: { task?: TaskBlock } & Record<string, unknown> = {},
): Promise<string> {
  const res = await mintAgentToken(svc, credential, body);
  if (res.status !== 200) throw new Error(`agent token mint answered ${res.status}: ${res.text}`);
  return res.body.access_token as string;
}

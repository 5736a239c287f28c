import { type Egress, EgressError } from './egress.js';

/** Provider metadata and key sets of real issuers are a few KiB; this bounds a hostile answer. */
export const JSON_DOCUMENT_BYTES = 256 * 1024;
const TIMEOUT_MS = 5_000;

export type JsonDocument = { document: Record<string, unknown> } | { problem: string };

/**
 * One JSON object fetched through the egress client (a discovery document, a JWK Set): 200, within
 * `JSON_DOCUMENT_BYTES`, no redirect followed. Otherwise `problem` says what was wrong, in words an admin can act
 * on (egress reasons are safe to show); `what` names the document in it.
 */
export async function fetchJsonDocument(egress: Egress, url: string, what: string): Promise<JsonDocument> {
  let response: Awaited<ReturnType<Egress['request']>>;
  try {
    response = await egress.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: TIMEOUT_MS,
      maxBodyBytes: JSON_DOCUMENT_BYTES,
    });
  } catch (error) {
    if (error instanceof EgressError) {
      return { problem: `${what} ${url} could not be fetched: ${error.code} (${error.reason})` };
    }
    throw error;
  }
  if (response.status >= 300 && response.status < 400) {
    return {
      problem: `${what} ${url} answered ${response.status} (a redirect): redirects are not followed, configure the final URL`,
    };
  }
  if (response.status !== 200) return { problem: `${what} ${url} answered HTTP ${response.status}, expected 200` };
  if (response.truncated) return { problem: `${what} ${url} is larger than ${JSON_DOCUMENT_BYTES / 1024} KiB` };
  try {
    const value = JSON.parse(response.body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return { document: value };
  } catch {
    // Not JSON: the problem below.
  }
  return { problem: `${what} ${url} is not a JSON object` };
}

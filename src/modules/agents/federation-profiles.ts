import { unprocessable } from '../../kernel/http/index.js';

/**
 * Workload identity issuer profiles (Part B 2.2): each names the claims a binding may match, exactly, on that
 * issuer's attestations. Only claims whose value is a plain string in the issuer's tokens are listed, and only
 * ones the workload cannot choose itself (docs/decisions.md, "Federated issuers").
 */
export const ISSUER_PROFILES = ['generic', 'github-actions', 'gitlab-ci', 'kubernetes'] as const;
export type IssuerProfile = (typeof ISSUER_PROFILES)[number];

export const CLAIM_SCHEMAS: Record<IssuerProfile, readonly string[]> = {
  // Any OpenID Connect issuer of workload tokens: the subject, and the client the token was issued to.
  generic: ['sub', 'azp', 'client_id'],
  // GitHub Actions OIDC tokens: the numeric ids survive a repository or owner being renamed and re-registered.
  'github-actions': [
    'sub',
    'repository',
    'repository_id',
    'repository_owner',
    'repository_owner_id',
    'ref',
    'ref_type',
    'workflow',
    'job_workflow_ref',
    'environment',
    'event_name',
    'actor',
  ],
  // GitLab CI ID tokens (`id_tokens:`).
  'gitlab-ci': [
    'sub',
    'project_id',
    'project_path',
    'namespace_id',
    'namespace_path',
    'ref',
    'ref_type',
    'ref_protected',
    'environment',
    'pipeline_source',
  ],
  // Kubernetes projected service-account tokens: `system:serviceaccount:<namespace>:<name>`.
  kubernetes: ['sub'],
};

/** Bindings per issuer (Part B 8). */
export const MAX_BINDINGS_PER_ISSUER = 25;
/** Longest claim value a binding may name (attestation claims are short identifiers and refs). */
const MAX_CLAIM_VALUE_LENGTH = 512;
const WILDCARD = /[*?]/;

/**
 * A binding's claims, checked against the profile: an object of claim name to one exact, non-empty string,
 * names from the profile's schema, `sub` always present, no wildcard characters. Answers them with the names
 * sorted (the stored form; `canonicalJson` of it is the duplicate key).
 */
export function checkBindingClaims(profile: IssuerProfile, claims: Record<string, unknown>): Record<string, string> {
  const schema = CLAIM_SCHEMAS[profile];
  if (typeof claims.sub !== 'string') throw unprocessable('claims.sub: is required (the subject claim)');
  const checked: Record<string, string> = {};
  for (const name of Object.keys(claims).sort()) {
    const value = claims[name];
    if (!schema.includes(name)) {
      throw unprocessable(`claims.${name}: not a claim of the ${profile} profile (one of: ${schema.join(', ')})`);
    }
    if (typeof value !== 'string' || value === '') throw unprocessable(`claims.${name}: must be a non-empty string`);
    if (value.length > MAX_CLAIM_VALUE_LENGTH) {
      throw unprocessable(`claims.${name}: must be at most ${MAX_CLAIM_VALUE_LENGTH} characters`);
    }
    if (WILDCARD.test(value)) {
      throw unprocessable(`claims.${name}: wildcards (* and ?) are refused; name the exact value`);
    }
    checked[name] = value;
  }
  return checked;
}

/** Whether an attestation's payload carries every claim of a binding with exactly that string value. */
export function claimsMatch(binding: Record<string, string>, payload: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(binding)) {
    if (payload[name] !== value) return false;
  }
  return true;
}

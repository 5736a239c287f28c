import { isSystemRole, PERMISSIONS } from '../../kernel/authz/catalog.js';
import { sha256Hex } from '../../kernel/crypto/secrets.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import { isCustomRoleCode } from '../roles/index.js';

// The IAM manifest document, version 1 (Part B 2.4): its one parser. Every rule that can be judged from the
// document alone is judged here (unknown keys by name, types, syntax, wildcards, roles an invite may never carry,
// duplicates); what depends on the organization's live state (does the resource exist, is the role code free, is
// the permission known) is the planner's (`would: conflict | invalid`).

export interface ManifestRole {
  code: string;
  name: string;
  permissions: string[];
}

export interface ManifestResourcePermission {
  action: string;
  risk?: number;
}

export interface ManifestResource {
  oauth_resource_identifier: string;
  namespace: string;
  permissions: ManifestResourcePermission[];
}

export interface ManifestInvite {
  email: string;
  role: string;
}

export interface ManifestSso {
  display_name: string;
  issuer: string;
  client_id: string;
  default_role?: string;
}

export interface Manifest {
  manifest_version: 1;
  roles?: ManifestRole[];
  resources?: ManifestResource[];
  invites?: ManifestInvite[];
  sso?: ManifestSso;
}

export type ParsedManifest = { ok: true; manifest: Manifest } | { ok: false; errors: string[] };

/** Most entries of each list; a manifest is a reviewable document, not a bulk import. */
export const MAX_ENTRIES = 100;
/** The permissions one role or one resource declares. */
export const MAX_PERMISSIONS = 100;

const TOP_KEYS = ['manifest_version', 'roles', 'resources', 'invites', 'sso'];
const ROLE_KEYS = ['code', 'name', 'permissions'];
const RESOURCE_KEYS = ['oauth_resource_identifier', 'namespace', 'permissions'];
const RESOURCE_PERMISSION_KEYS = ['action', 'risk'];
const INVITE_KEYS = ['email', 'role'];
const SSO_KEYS = ['display_name', 'issuer', 'client_id', 'default_role'];

/** An exact permission code: `domain:action`, more segments allowed, lowercase; never a pattern. */
const PERMISSION_CODE = /^[a-z][a-z0-9_-]*(:[a-z0-9][a-z0-9_.-]*)+$/;
/** A resource's namespace: the first segment of the codes it declares. */
const NAMESPACE = /^[a-z][a-z0-9_-]{1,63}$/;
/** One action of a resource: the rest of the code after `namespace:`. */
const ACTION = /^[a-z0-9][a-z0-9_.-]{0,63}(:[a-z0-9][a-z0-9_.-]{0,63})*$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{1,63}$/;
/** Domains the catalogue's own permissions use: a resource namespace may not take one. */
const CATALOGUE_DOMAINS = new Set(PERMISSIONS.map((p) => p.code.split(':')[0]!));

/** Roles an invitation or the SSO default role may never carry (Part B 2.4). */
const NEVER_INVITED = new Set(['owner', 'customer']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The content hash of a manifest: SHA-256 (hex) of its RFC 8785 canonical JSON. */
export const manifestHashOf = (manifest: Manifest): string => sha256Hex(canonicalJson(manifest));

/** The permission codes a manifest resource declares: `namespace:action`, in the document's order. */
export const declaredCodesOf = (resource: ManifestResource): string[] =>
  resource.permissions.map((p) => `${resource.namespace}:${p.action}`);

/**
 * Parses a manifest document (Part B 2.4). Answers every error found, each naming its field
 * (`roles[0].permissions[2]: …`), or the manifest with its lists as given. A wrapper posted where the document
 * belongs, or the document posted where the envelope belongs, is told apart by the routes (`parseEnvelope`).
 */
export function parseManifest(document: unknown): ParsedManifest {
  const errors: string[] = [];
  if (!isObject(document)) return { ok: false, errors: ['manifest: must be a JSON object'] };
  unknownKeys(document, TOP_KEYS, 'manifest', errors);
  if (!('manifest_version' in document)) errors.push('manifest.manifest_version: required (the integer 1)');
  else if (document.manifest_version !== 1) errors.push('manifest.manifest_version: must be the integer 1');

  const roles = list(document, 'roles', errors);
  const roleCodes = new Set<string>();
  roles.forEach((role, i) => {
    const at = `roles[${i}]`;
    if (!entry(role, at, ROLE_KEYS, errors)) return;
    const code = text(role, 'code', at, errors, 64);
    if (code !== undefined) {
      if (isSystemRole(code)) errors.push(`${at}.code: ${code} is a system role; a manifest defines custom roles only`);
      else if (!isCustomRoleCode(code)) {
        errors.push(
          `${at}.code: must be lowercase letters, digits, - or _, 2 to 64 characters, starting with a letter`,
        );
      } else if (roleCodes.has(code)) errors.push(`${at}.code: ${code} appears twice in the manifest`);
      roleCodes.add(code);
    }
    text(role, 'name', at, errors, 100);
    permissionCodes(role, at, errors);
  });

  const resources = list(document, 'resources', errors);
  const identifiers = new Set<string>();
  const namespaces = new Set<string>();
  resources.forEach((resource, i) => {
    const at = `resources[${i}]`;
    if (!entry(resource, at, RESOURCE_KEYS, errors)) return;
    const identifier = text(resource, 'oauth_resource_identifier', at, errors, 2048);
    if (identifier !== undefined) {
      if (identifiers.has(identifier)) {
        errors.push(`${at}.oauth_resource_identifier: ${identifier} appears twice in the manifest`);
      }
      identifiers.add(identifier);
    }
    const namespace = text(resource, 'namespace', at, errors, 64);
    if (namespace !== undefined) {
      if (namespace.includes('*')) errors.push(`${at}.namespace: wildcards are not allowed`);
      else if (!NAMESPACE.test(namespace)) {
        errors.push(`${at}.namespace: must be lowercase letters, digits, - or _, 2 to 64 characters`);
      } else if (CATALOGUE_DOMAINS.has(namespace)) {
        errors.push(`${at}.namespace: ${namespace} is a domain of the built-in permission catalogue`);
      } else if (namespaces.has(namespace)) errors.push(`${at}.namespace: ${namespace} appears twice in the manifest`);
      namespaces.add(namespace);
    }
    const permissions = resource.permissions;
    if (!Array.isArray(permissions)) {
      errors.push(`${at}.permissions: required, an array of {action, risk?}`);
      return;
    }
    if (permissions.length === 0 || permissions.length > MAX_PERMISSIONS) {
      errors.push(`${at}.permissions: 1 to ${MAX_PERMISSIONS} entries`);
    }
    const actions = new Set<string>();
    permissions.forEach((permission, j) => {
      const pat = `${at}.permissions[${j}]`;
      if (!entry(permission, pat, RESOURCE_PERMISSION_KEYS, errors)) return;
      const action = text(permission, 'action', pat, errors, 128);
      if (action !== undefined) {
        if (action.includes('*')) errors.push(`${pat}.action: wildcards are not allowed`);
        else if (!ACTION.test(action)) {
          errors.push(`${pat}.action: lowercase letters, digits, _ . - (segments separated by :)`);
        } else if (actions.has(action)) errors.push(`${pat}.action: ${action} appears twice in this resource`);
        actions.add(action);
      }
      if ('risk' in permission) {
        const risk = permission.risk;
        if (typeof risk !== 'number' || !Number.isInteger(risk) || risk < 0 || risk > 100) {
          errors.push(`${pat}.risk: must be an integer from 0 to 100`);
        }
      }
    });
  });

  const invites = list(document, 'invites', errors);
  const emails = new Set<string>();
  invites.forEach((invite, i) => {
    const at = `invites[${i}]`;
    if (!entry(invite, at, INVITE_KEYS, errors)) return;
    const email = text(invite, 'email', at, errors, 320);
    if (email !== undefined) {
      if (!EMAIL.test(email)) errors.push(`${at}.email: must be an email address`);
      else if (emails.has(email.toLowerCase())) errors.push(`${at}.email: ${email} appears twice in the manifest`);
      emails.add(email.toLowerCase());
    }
    invitedRole(invite, 'role', at, errors, true);
  });

  if ('sso' in document) {
    const sso = document.sso;
    if (entry(sso, 'sso', SSO_KEYS, errors, ' (a manifest never carries a secret: add it in the SSO settings)')) {
      text(sso, 'display_name', 'sso', errors, 100);
      const issuer = text(sso, 'issuer', 'sso', errors, 2048);
      if (issuer !== undefined && !isHttpsUrl(issuer)) errors.push('sso.issuer: must be an https URL');
      text(sso, 'client_id', 'sso', errors, 255);
      invitedRole(sso, 'default_role', 'sso', errors, false);
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, manifest: document as unknown as Manifest };
}

function isHttpsUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function unknownKeys(value: Record<string, unknown>, allowed: string[], at: string, errors: string[], hint = '') {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      errors.push(`${at}.${key}: unknown key (allowed: ${allowed.join(', ')})${key.includes('secret') ? hint : ''}`);
    }
  }
}

/** An optional top-level list; absent is empty. */
function list(document: Record<string, unknown>, key: string, errors: string[]): unknown[] {
  if (!(key in document)) return [];
  const value = document[key];
  if (!Array.isArray(value)) {
    errors.push(`manifest.${key}: must be an array`);
    return [];
  }
  if (value.length > MAX_ENTRIES) errors.push(`manifest.${key}: at most ${MAX_ENTRIES} entries`);
  return value;
}

function entry(
  value: unknown,
  at: string,
  keys: string[],
  errors: string[],
  hint = '',
): value is Record<string, unknown> {
  if (!isObject(value)) {
    errors.push(`${at}: must be an object`);
    return false;
  }
  unknownKeys(value, keys, at, errors, hint);
  return true;
}

/** A required string of 1 to `max` characters, without surrounding white space. */
function text(
  value: Record<string, unknown>,
  key: string,
  at: string,
  errors: string[],
  max: number,
): string | undefined {
  const raw = value[key];
  if (raw === undefined) {
    errors.push(`${at}.${key}: required`);
    return undefined;
  }
  if (typeof raw !== 'string') {
    errors.push(`${at}.${key}: must be a string`);
    return undefined;
  }
  if (raw.length === 0 || raw.length > max || raw.trim() !== raw) {
    errors.push(`${at}.${key}: 1 to ${max} characters, no surrounding white space`);
    return undefined;
  }
  return raw;
}

function permissionCodes(value: Record<string, unknown>, at: string, errors: string[]): void {
  const permissions = value.permissions;
  if (!Array.isArray(permissions)) {
    errors.push(`${at}.permissions: required, an array of exact permission codes`);
    return;
  }
  if (permissions.length === 0 || permissions.length > MAX_PERMISSIONS) {
    errors.push(`${at}.permissions: 1 to ${MAX_PERMISSIONS} codes`);
  }
  const seen = new Set<string>();
  permissions.forEach((code, j) => {
    const pat = `${at}.permissions[${j}]`;
    if (typeof code !== 'string') errors.push(`${pat}: must be a string`);
    else if (code.includes('*')) errors.push(`${pat}: ${code} is a wildcard; only exact permission codes are allowed`);
    else if (!PERMISSION_CODE.test(code)) errors.push(`${pat}: ${JSON.stringify(code)} is not a permission code`);
    else if (seen.has(code)) errors.push(`${pat}: ${code} appears twice`);
    if (typeof code === 'string') seen.add(code);
  });
}

/** The role of an invite (required) or the SSO default role (optional): never owner or customer. */
function invitedRole(value: Record<string, unknown>, key: string, at: string, errors: string[], required: boolean) {
  if (!required && value[key] === undefined) return;
  const role = text(value, key, at, errors, 64);
  if (role === undefined) return;
  if (NEVER_INVITED.has(role)) errors.push(`${at}.${key}: never ${role} (owner and customer cannot be granted)`);
  else if (!isSystemRole(role) && !isCustomRoleCode(role)) errors.push(`${at}.${key}: ${role} is not a role code`);
}

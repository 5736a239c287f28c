import { ScimError } from '../../kernel/http/index.js';
import type { AccountProfile } from '../accounts/index.js';
import { invalidValue, scimErrorOf, text } from './common.js';
import { applyPatch, type Doc } from './patch.js';
import { USER_RESOURCE } from './resource-schemas.js';
import type { ScimEmail } from './schema.js';
import type * as store from './store.js';

// A User's attributes between the wire and the table: the document PATCH works on, the checks before storage, and
// the account's sign-in address and names derived from them.

/** An address as accounts take it; at most 254 characters (RFC 5321 path limit). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_ADDRESS = 254;
const MAX_EMAILS = 20;
/** Read-only or never-stored members of a written User (RFC 7643 section 7: read-only ones are ignored on write). */
const NOT_WRITTEN = new Set(['id', 'meta', 'schemas', 'groups', 'password']);

/** A User's stored attributes, checked. */
export interface UserFields {
  userName: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
  emails: ScimEmail[];
  active: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document PATCH operates on: the writable attributes with their canonical names. */
export function docOf(row: store.ScimUserRow): Doc {
  const name = {
    ...(row.formattedName !== null ? { formatted: row.formattedName } : {}),
    ...(row.familyName !== null ? { familyName: row.familyName } : {}),
    ...(row.givenName !== null ? { givenName: row.givenName } : {}),
  };
  return {
    userName: row.userName,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    ...(Object.keys(name).length > 0 ? { name } : {}),
    ...(row.displayName !== null ? { displayName: row.displayName } : {}),
    ...(row.emails.length > 0 ? { emails: structuredClone(row.emails) } : {}),
    active: row.active,
  };
}

/** A document's attributes checked for storage; `active` left out keeps `activeDefault`. */
export function fieldsOf(doc: Doc, activeDefault: boolean): UserFields {
  const userName = text('userName', doc.userName);
  if (!userName) throw invalidValue('userName: is required');
  const name = isObject(doc.name) ? doc.name : {};
  const emails = Array.isArray(doc.emails) ? (doc.emails as Record<string, unknown>[]) : [];
  if (emails.length > MAX_EMAILS) throw invalidValue(`emails: at most ${MAX_EMAILS}`);
  return {
    userName,
    externalId: text('externalId', doc.externalId),
    displayName: text('displayName', doc.displayName),
    givenName: text('name.givenName', name.givenName),
    familyName: text('name.familyName', name.familyName),
    formattedName: text('name.formatted', name.formatted),
    emails: emails.map((email) => {
      const value = text('emails.value', email.value);
      if (!value) throw invalidValue('emails: every email needs a value');
      const type = text('emails.type', email.type);
      const display = text('emails.display', email.display);
      return {
        value,
        ...(type ? { type } : {}),
        ...(email.primary === true ? { primary: true } : {}),
        ...(display ? { display } : {}),
      };
    }),
    active: typeof doc.active === 'boolean' ? doc.active : activeDefault,
  };
}

/**
 * The account's sign-in address: userName when it is an address (Okta), else the primary email, else the first
 * (Entra's userName is often a UPN or an opaque name). 400 when neither is an address.
 */
export function signInAddress(fields: UserFields): string {
  const candidates = [
    fields.userName,
    fields.emails.find((email) => email.primary)?.value,
    fields.emails.find((email) => email.type?.toLowerCase() === 'work')?.value,
    fields.emails[0]?.value,
  ];
  const address = candidates.find((value) => value && value.length <= MAX_ADDRESS && EMAIL.test(value));
  if (!address) {
    throw invalidValue('userName or an email must be an email address: it is the account’s sign-in address');
  }
  return address;
}

/** The account's profile names, as the identity provider manages them for accounts it created. */
export const profileOf = (fields: UserFields): AccountProfile => ({
  name:
    fields.displayName ??
    fields.formattedName ??
    ([fields.givenName, fields.familyName].filter(Boolean).join(' ') || null),
  givenName: fields.givenName,
  familyName: fields.familyName,
});

/** jsonb keeps no key order, so emails compare member by member. */
const emailKey = (email: ScimEmail) => [email.value, email.type ?? null, email.primary === true, email.display ?? null];
const sameEmails = (a: ScimEmail[], b: ScimEmail[]) =>
  JSON.stringify(a.map(emailKey)) === JSON.stringify(b.map(emailKey));

/** Names of the User attributes that differ. */
export function changes(row: store.ScimUserRow, fields: UserFields): string[] {
  const changed: string[] = [];
  if (row.userName !== fields.userName) changed.push('userName');
  if (row.externalId !== fields.externalId) changed.push('externalId');
  if (row.displayName !== fields.displayName) changed.push('displayName');
  if (
    row.givenName !== fields.givenName ||
    row.familyName !== fields.familyName ||
    row.formattedName !== fields.formattedName
  ) {
    changed.push('name');
  }
  if (!sameEmails(row.emails, fields.emails)) changed.push('emails');
  if (row.active !== fields.active) changed.push('active');
  return changed;
}

/** The POST and PUT body as a document: read-only attributes ignored, the rest checked like PATCH values. */
export function writtenDoc(body: unknown, id: string): Doc {
  if (!isObject(body)) throw new ScimError(400, 'A User must be a JSON object', 'invalidSyntax');
  const value = Object.fromEntries(Object.entries(body).filter(([key]) => !NOT_WRITTEN.has(key.toLowerCase())));
  try {
    return applyPatch({}, [{ op: 'replace', value }], { resource: USER_RESOURCE, id });
  } catch (error) {
    throw scimErrorOf(error);
  }
}

import { describe, expect, it } from 'vitest';
import {
  applyPatch,
  type Doc,
  MemberPlan,
  membersIntercept,
  PatchError,
  type PatchErrorType,
  parsePatchRequest,
} from './patch.js';
import { GROUP_RESOURCE, USER_RESOURCE } from './resource-schemas.js';

const ID = '0196c1a2-0000-7000-8000-000000000001';
const base: Doc = {
  userName: 'ann@example.com',
  name: { givenName: 'Ann', familyName: 'Lee' },
  emails: [{ value: 'ann@example.com', type: 'work', primary: true }],
  active: true,
};

const patch = (doc: Doc, operations: unknown[]) =>
  applyPatch(doc, parsePatchRequest({ Operations: operations }), { resource: USER_RESOURCE, id: ID });

function failure(work: () => unknown): PatchErrorType | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof PatchError) return error.scimType;
    throw error;
  }
  return undefined;
}

describe('parsePatchRequest', () => {
  it('reads Operations in any case and ops in any case', () => {
    expect(parsePatchRequest({ operations: [{ Op: 'Replace', Path: 'active', Value: false }] })).toEqual([
      { op: 'replace', path: { path: { attr: 'active' } }, pathText: 'active', value: false },
    ]);
  });

  it('refuses malformed messages with the RFC 7644 scimType', () => {
    expect(failure(() => parsePatchRequest(null))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: {} }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: [] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: ['add'] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: [{ op: 'copy', path: 'a' }] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: [{ op: 'add', path: 'a' }] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ Operations: [{ op: 'remove' }] }))).toBe('noTarget');
    expect(failure(() => parsePatchRequest({ Operations: [{ op: 'add', path: 5, value: 1 }] }))).toBe('invalidPath');
    expect(failure(() => parsePatchRequest({ Operations: [{ op: 'add', path: 'a[b eq', value: 1 }] }))).toBe(
      'invalidPath',
    );
  });
});

describe('applyPatch on a User', () => {
  it('Okta: replace without a path', () => {
    expect(patch(base, [{ op: 'replace', value: { active: false } }])).toEqual({ ...base, active: false });
  });

  it('Entra: capitalised ops, string booleans, sub-attribute and value-filter paths', () => {
    const next = patch(base, [
      { op: 'Replace', path: 'active', value: 'False' },
      { op: 'Replace', path: 'name.familyName', value: 'Li' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ann.li@example.com' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName', value: 'Ann Li' },
    ]);
    expect(next).toEqual({
      userName: 'ann@example.com',
      name: { givenName: 'Ann', familyName: 'Li' },
      emails: [{ value: 'ann.li@example.com', type: 'work', primary: true }],
      active: false,
      displayName: 'Ann Li',
    });
  });

  it('creates the element an unmatched eq value filter describes, on add and on replace', () => {
    const next = patch(base, [
      { op: 'Add', path: 'emails[type eq "home"].value', value: 'ann@home.example' },
      { op: 'Replace', path: 'emails[type eq "other" and primary eq true].value', value: 'x@y.example' },
    ]);
    expect(next.emails).toEqual([
      { value: 'ann@example.com', type: 'work' },
      { type: 'home', value: 'ann@home.example' },
      { type: 'other', primary: true, value: 'x@y.example' },
    ]);
    expect(failure(() => patch(base, [{ op: 'replace', path: 'emails[value co "z"].type', value: 'home' }]))).toBe(
      'noTarget',
    );
  });

  it('treats the keys of a path-less value as paths, and ignores id (when unchanged), schemas and meta', () => {
    const next = patch(base, [
      {
        op: 'add',
        value: {
          id: ID,
          schemas: ['x'],
          meta: {},
          'name.givenName': 'Annie',
          'emails[type eq "work"].display': 'Work',
        },
      },
    ]);
    expect(next.name).toEqual({ givenName: 'Annie', familyName: 'Lee' });
    expect(next.emails).toEqual([{ value: 'ann@example.com', type: 'work', primary: true, display: 'Work' }]);
    expect(failure(() => patch(base, [{ op: 'replace', value: { id: 'other' } }]))).toBe('mutability');
  });

  it('merges complex values on add and replace, and removes attributes, sub-attributes and elements', () => {
    expect(patch(base, [{ op: 'replace', path: 'name', value: { formatted: 'Ann Lee' } }]).name).toEqual({
      givenName: 'Ann',
      familyName: 'Lee',
      formatted: 'Ann Lee',
    });
    expect(patch(base, [{ op: 'remove', path: 'name.givenName' }]).name).toEqual({ familyName: 'Lee' });
    expect(patch(base, [{ op: 'remove', path: 'name' }])).not.toHaveProperty('name');
    expect(patch(base, [{ op: 'replace', path: 'displayName', value: null }])).not.toHaveProperty('displayName');
    const two = patch(base, [{ op: 'add', path: 'emails', value: [{ value: 'b@example.com', type: 'home' }] }]);
    expect(two.emails).toHaveLength(2);
    expect(patch(two, [{ op: 'remove', path: 'emails[type eq "home"]' }]).emails).toEqual(base.emails);
    expect(patch(two, [{ op: 'remove', path: 'emails' }])).not.toHaveProperty('emails');
    expect(patch(two, [{ op: 'replace', path: 'emails', value: [{ value: 'c@example.com' }] }]).emails).toEqual([
      { value: 'c@example.com' },
    ]);
  });

  it('adds without duplicates and keeps one primary value (RFC 7644 section 3.5.2)', () => {
    const same = patch(base, [{ op: 'add', path: 'emails', value: [{ value: 'ANN@example.com', type: 'work' }] }]);
    expect(same.emails).toEqual(base.emails);
    const moved = patch(base, [{ op: 'add', path: 'emails', value: { value: 'n@example.com', primary: true } }]);
    expect(moved.emails).toEqual([
      { value: 'ann@example.com', type: 'work' },
      { value: 'n@example.com', primary: true },
    ]);
  });

  it('leaves attributes it does not keep alone, and refuses read-only ones and wrong types', () => {
    expect(
      patch(base, [
        { op: 'add', path: 'nickName', value: 'A' },
        { op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'X' },
        { op: 'add', path: 'phoneNumbers[type eq "work"].value', value: '555' },
      ]),
    ).toEqual(base);
    expect(failure(() => patch(base, [{ op: 'replace', path: 'groups', value: [] }]))).toBe('mutability');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'meta.created', value: 'x' }]))).toBe('mutability');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'active', value: 'yes' }]))).toBe('invalidValue');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'userName', value: 7 }]))).toBe('invalidValue');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'name', value: 'Ann' }]))).toBe('invalidValue');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'userName.x', value: 'a' }]))).toBe('invalidPath');
    expect(failure(() => patch(base, [{ op: 'replace', path: 'userName[value eq "a"]', value: 'a' }]))).toBe(
      'invalidPath',
    );
    expect(failure(() => patch(base, [{ op: 'add', value: 'not an object' }]))).toBe('invalidValue');
  });

  it('never changes its input', () => {
    const input = structuredClone(base);
    patch(input, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'z@example.com' }]);
    expect(input).toEqual(base);
  });
});

describe('group members', () => {
  const groupPatch = (operations: unknown[]) => {
    const plan = new MemberPlan();
    const doc = applyPatch({ displayName: 'G' }, parsePatchRequest({ Operations: operations }), {
      resource: GROUP_RESOURCE,
      id: ID,
      intercept: membersIntercept(plan),
    });
    return { doc, plan: { cleared: plan.cleared, added: [...plan.added], removed: [...plan.removed] } };
  };

  it('Okta: add a list, remove by value filter (several joined by or)', () => {
    expect(
      groupPatch([{ op: 'add', path: 'members', value: [{ value: 'a', display: 'A' }, { value: 'b' }] }]).plan,
    ).toEqual({ cleared: false, added: ['a', 'b'], removed: [] });
    expect(groupPatch([{ op: 'remove', path: 'members[value eq "a" or value eq "b"]' }]).plan).toEqual({
      cleared: false,
      added: [],
      removed: ['a', 'b'],
    });
  });

  it('Entra: Add and Remove with path members and a value list; a later operation wins over an earlier one', () => {
    expect(
      groupPatch([
        { op: 'Add', path: 'members', value: [{ $ref: null, value: 'a' }] },
        { op: 'Remove', path: 'members', value: [{ $ref: null, value: 'a' }, { value: 'c' }] },
        { op: 'Replace', path: 'displayName', value: 'H' },
      ]),
    ).toEqual({ doc: { displayName: 'H' }, plan: { cleared: false, added: [], removed: ['a', 'c'] } });
  });

  it('replace or remove without a value clears the members first', () => {
    expect(groupPatch([{ op: 'replace', path: 'members', value: [{ value: 'x' }] }]).plan).toEqual({
      cleared: true,
      added: ['x'],
      removed: [],
    });
    expect(groupPatch([{ op: 'remove', path: 'members' }]).plan).toEqual({ cleared: true, added: [], removed: [] });
    expect(groupPatch([{ op: 'replace', value: { id: ID, displayName: 'N', members: [] } }])).toEqual({
      doc: { displayName: 'N' },
      plan: { cleared: true, added: [], removed: [] },
    });
  });

  it('refuses member changes it cannot express', () => {
    expect(failure(() => groupPatch([{ op: 'add', path: 'members[value eq "a"]', value: [] }]))).toBe('invalidPath');
    expect(failure(() => groupPatch([{ op: 'remove', path: 'members[display eq "a"]' }]))).toBe('invalidPath');
    expect(failure(() => groupPatch([{ op: 'add', path: 'members', value: [{ display: 'no value' }] }]))).toBe(
      'invalidValue',
    );
    expect(failure(() => groupPatch([{ op: 'replace', path: 'members.value', value: 'a' }]))).toBe('mutability');
  });
});

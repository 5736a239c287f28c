import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutes } from '../../src/kernel/clock.js';
import { startService, type TestService } from '../support/service.js';
import { GROUP_SCHEMA, scimHarness, USER_SCHEMA } from './scim-support.js';

let svc: TestService;
let token: string;
const ids: Record<string, string> = {};
let groupId: string;
let beforeUpdate: string;

const { scim, patchOp, provisionedOrg, expectScimError, db } = scimHarness(() => svc);

/** Four users whose attributes tell every operator apart (the suffix keeps their addresses unique). */
const suffix = Math.random().toString(36).slice(2, 8);
const address = (who: string, domain = 'corp.example') => `${who}.${suffix}@${domain}`;
const PEOPLE = {
  alice: {
    userName: address('alice'),
    externalId: 'ext-1',
    name: { givenName: 'Alice', familyName: 'Smith' },
    displayName: 'Alice Smith',
    emails: [
      { value: address('alice'), type: 'work', primary: true },
      { value: address('alice', 'home.example'), type: 'home' },
    ],
  },
  bob: {
    userName: address('bob'),
    externalId: 'EXT-2',
    name: { givenName: 'Bob', familyName: 'Jones' },
    displayName: 'Bob Jones',
    emails: [{ value: address('bob'), type: 'work', primary: true }],
    active: false,
  },
  carol: { userName: address('carol', 'other.example'), name: { givenName: 'Carol', familyName: 'Smith' } },
  dave: {
    userName: address('dave'),
    externalId: 'ext-4',
    displayName: 'Dave',
    emails: [{ value: address('dave'), type: 'work' }],
  },
};

beforeAll(async () => {
  svc = await startService();
  ({ token } = await provisionedOrg());
  for (const [who, body] of Object.entries(PEOPLE)) {
    const res = await scim(token, 'POST', '/Users', { schemas: [USER_SCHEMA], ...body });
    expect(res.status, res.text).toBe(201);
    ids[who] = res.body.id;
  }
  svc.clock.advance(minutes(5));
  beforeUpdate = new Date(svc.clock.now().getTime() - 1000).toISOString();
  await scim(
    token,
    'PATCH',
    `/Users/${ids.bob}`,
    patchOp([{ op: 'replace', path: 'displayName', value: 'Robert Jones' }]),
  );
  const group = await scim(token, 'POST', '/Groups', {
    schemas: [GROUP_SCHEMA],
    displayName: 'Admins',
    members: [{ value: ids.alice }, { value: ids.dave }],
  });
  groupId = group.body.id;
});
afterAll(async () => {
  await svc?.close();
});

const names = async (filter: string, resource = 'Users') => {
  const res = await scim(token, 'GET', `/${resource}?filter=${encodeURIComponent(filter)}`);
  expect(res.status, `${filter}: ${res.text}`).toBe(200);
  const byId = Object.fromEntries(Object.entries(ids).map(([who, id]) => [id, who]));
  return res.body.Resources.map((r: { id: string; displayName?: string }) => byId[r.id] ?? r.displayName).sort();
};

describe('filters (RFC 7644 section 3.4.2.2)', () => {
  it('compares with eq, ne, co, sw, ew, pr, gt and lt; attribute names, operators and userName ignore case', async () => {
    expect(await names(`userName eq "${PEOPLE.alice.userName.toUpperCase()}"`)).toEqual(['alice']);
    expect(await names(`USERNAME EQ "${PEOPLE.alice.userName}"`)).toEqual(['alice']);
    expect(await names(`${USER_SCHEMA}:userName eq "${PEOPLE.alice.userName}"`)).toEqual(['alice']);
    expect(await names('userName co "corp.example"')).toEqual(['alice', 'bob', 'dave']);
    expect(await names('userName sw "B"')).toEqual(['bob']);
    expect(await names('userName ew "@other.example"')).toEqual(['carol']);
    expect(await names('externalId pr')).toEqual(['alice', 'bob', 'dave']);
    // externalId is case-exact (RFC 7643 section 3.1).
    expect(await names('externalId eq "ext-2"')).toEqual([]);
    expect(await names('externalId eq "EXT-2"')).toEqual(['bob']);
    expect(await names('name.familyName eq "smith"')).toEqual(['alice', 'carol']);
    expect(await names('name pr')).toEqual(['alice', 'bob', 'carol']);
    expect(await names('displayName ne "Dave"')).toEqual(['alice', 'bob', 'carol']);
    expect(await names('displayName gt "B"')).toEqual(['dave', 'bob'].sort());
    expect(await names('displayName lt "B"')).toEqual(['alice']);
    expect(await names(`id eq "${ids.carol}"`)).toEqual(['carol']);
    expect(await names('active eq false')).toEqual(['bob']);
    expect(await names(`meta.lastModified gt "${beforeUpdate}"`)).toEqual(['bob']);
    expect(await names(`meta.created lt "${beforeUpdate}"`)).toEqual(['alice', 'bob', 'carol', 'dave']);
  });

  it('combines with and, or, not and parentheses ("and" binds tighter than "or")', async () => {
    expect(await names('userName sw "alice" or userName sw "bob" and active eq true')).toEqual(['alice']);
    expect(await names('(userName sw "alice" or userName sw "bob") and active eq false')).toEqual(['bob']);
    expect(await names('not (active eq false)')).toEqual(['alice', 'carol', 'dave']);
    expect(await names('name.familyName eq "Smith" and not (displayName pr)')).toEqual(['carol']);
  });

  it('reaches multi-valued attributes: emails[…], emails.value, and group members', async () => {
    expect(await names('emails[type eq "home" and value co "home.example"]')).toEqual(['alice']);
    expect(await names('emails[type eq "work" and primary eq true]')).toEqual(['alice', 'bob']);
    expect(await names('emails.value ew "@corp.example"')).toEqual(['alice', 'bob', 'dave']);
    expect(await names(`emails eq "${PEOPLE.alice.emails[1]!.value}"`)).toEqual(['alice']);
    expect(await names('emails pr')).toEqual(['alice', 'bob', 'dave']);
    expect(await names(`groups.value eq "${groupId}"`)).toEqual(['alice', 'dave']);
    expect(await names(`members[value eq "${ids.dave}"]`, 'Groups')).toEqual(['Admins']);
    expect(await names(`members eq "${ids.bob}"`, 'Groups')).toEqual([]);
    expect(await names('displayName eq "admins"', 'Groups')).toEqual(['Admins']);
    expect(await names('externalId pr', 'Groups')).toEqual([]);
  });

  it('refuses what it cannot express with 400 invalidFilter', async () => {
    for (const [resource, filter] of [
      ['Users', 'userName eq'],
      ['Users', 'userName xx "a"'],
      ['Users', 'nickName eq "a"'],
      ['Users', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "a"'],
      ['Users', 'active eq "yes"'],
      ['Users', 'userName gt 5'],
      ['Users', 'meta.lastModified gt "not a date"'],
      ['Users', 'meta.lastModified co "2020"'],
      ['Users', 'name eq "x"'],
      ['Users', 'userName eq "a" and'],
      ['Users', '(userName eq "a"'],
      ['Users', 'emails[type eq "work"'],
      ['Users', 'emails[type[value eq "x"] eq "y"]'],
      ['Users', 'userName eq "unterminated'],
      ['Users', `userName eq "${'a'.repeat(2100)}"`],
      ['Groups', 'members.display eq "x"'],
    ]) {
      const res = await scim(token, 'GET', `/${resource}?filter=${encodeURIComponent(filter!)}`);
      expectScimError(res, 400, 'invalidFilter');
    }
  });
});

describe('pagination (RFC 7644 section 3.4.2.4)', () => {
  it('pages with a 1-based startIndex and count, in a stable order', async () => {
    const first = await scim(token, 'GET', '/Users?startIndex=1&count=2');
    expect(first.body).toMatchObject({ totalResults: 4, startIndex: 1, itemsPerPage: 2 });
    const second = await scim(token, 'GET', '/Users?startIndex=3&count=2');
    expect(second.body).toMatchObject({ totalResults: 4, startIndex: 3, itemsPerPage: 2 });
    const pageIds = [...first.body.Resources, ...second.body.Resources].map((r: { id: string }) => r.id);
    expect(pageIds).toEqual([ids.alice, ids.bob, ids.carol, ids.dave]);
    expect((await scim(token, 'GET', '/Users?startIndex=5')).body).toMatchObject({
      totalResults: 4,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await scim(token, 'GET', '/Users?startIndex=0&count=1')).body).toMatchObject({
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect((await scim(token, 'GET', '/Users?count=0')).body).toMatchObject({
      totalResults: 4,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await scim(token, 'GET', '/Users?count=-3')).body).toMatchObject({ totalResults: 4, itemsPerPage: 0 });
    const filtered = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent('userName co "corp"')}&startIndex=2&count=1`,
    );
    expect(filtered.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(filtered.body.Resources[0].id).toBe(ids.bob);
  });

  it('answers at most 200 resources a page, 100 by default', async () => {
    const { owner, token: big } = await provisionedOrg('bigorg');
    // 205 provisioned users written directly: the paging, not the provisioning, is under test here.
    await db().execute(sql`
      with people as (
        insert into users (id, email, email_key, created_at, updated_at)
        select gen_random_uuid(), 'bulk' || n || '.' || ${owner.tenantId} || '@bulk.example',
               'bulk' || n || '.' || ${owner.tenantId} || '@bulk.example', now(), now()
        from generate_series(1, 205) n
        returning id, email)
      insert into scim_users (tenant_id, id, user_id, user_name, user_name_key, emails, active, owns_account, version,
                              created_at, updated_at)
      select ${owner.tenantId}, gen_random_uuid(), id, email, email, '[]'::jsonb, true, true, 1, now(), now()
      from people`);
    const capped = await scim(big, 'GET', '/Users?count=500');
    expect(capped.body).toMatchObject({ totalResults: 205, itemsPerPage: 200 });
    expect((await scim(big, 'GET', '/Users')).body).toMatchObject({ totalResults: 205, itemsPerPage: 100 });
    expect((await scim(big, 'GET', '/Users?startIndex=201&count=200')).body.itemsPerPage).toBe(5);
  });
});

describe('attributes and excludedAttributes (RFC 7644 section 3.9)', () => {
  it('returns only what is asked, always with id and schemas', async () => {
    const only = await scim(token, 'GET', `/Users/${ids.alice}?attributes=userName,name.givenName`);
    expect(only.body).toEqual({
      schemas: [USER_SCHEMA],
      id: ids.alice,
      userName: PEOPLE.alice.userName,
      name: { givenName: 'Alice' },
    });
    const without = await scim(token, 'GET', `/Users/${ids.alice}?excludedAttributes=emails,groups,id,meta`);
    expect(Object.keys(without.body).sort()).toEqual([
      'active',
      'displayName',
      'externalId',
      'id',
      'name',
      'schemas',
      'userName',
    ]);
    const listed = await scim(
      token,
      'GET',
      `/Users?attributes=${encodeURIComponent(`${USER_SCHEMA}:emails.value`)}&count=1`,
    );
    expect(listed.body.Resources[0]).toEqual({
      schemas: [USER_SCHEMA],
      id: ids.alice,
      emails: PEOPLE.alice.emails.map(({ value }) => ({ value })),
    });
    const group = await scim(token, 'GET', `/Groups/${groupId}?attributes=displayName`);
    expect(group.body).toEqual({ schemas: [GROUP_SCHEMA], id: groupId, displayName: 'Admins' });
    // A Group PATCH with attributes answers the Group (200) instead of 204.
    const patched = await scim(
      token,
      'PATCH',
      `/Groups/${groupId}?excludedAttributes=members`,
      patchOp([{ op: 'remove', path: `members[value eq "${ids.dave}"]` }]),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: groupId, displayName: 'Admins' });
    expect(patched.body).not.toHaveProperty('members');
  });
});

describe('discovery (RFC 7644 section 4)', () => {
  it('describes the service, its resource types and schemas', async () => {
    const types = await scim(token, 'GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { name: string; endpoint: string }) => [t.name, t.endpoint])).toEqual([
      ['User', '/Users'],
      ['Group', '/Groups'],
    ]);
    expect((await scim(token, 'GET', '/ResourceTypes/User')).body.schema).toBe(USER_SCHEMA);
    const schemas = await scim(token, 'GET', '/Schemas');
    expect(schemas.body.totalResults).toBe(2);
    const user = await scim(token, 'GET', `/Schemas/${USER_SCHEMA}`);
    expect(user.body.attributes.map((a: { name: string }) => a.name)).toEqual([
      'userName',
      'name',
      'displayName',
      'active',
      'emails',
      'groups',
    ]);
    const config = await scim(token, 'GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({
      bulk: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      changePassword: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
  });
});

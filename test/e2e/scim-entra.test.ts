import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { startService, type TestService } from '../support/service.js';
import { GROUP_SCHEMA, person, scimHarness, USER_SCHEMA } from './scim-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const { scim, patchOp, provisionedOrg, roster, db } = scimHarness(() => svc);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const accountOf = async (userId: string) =>
  (
    await rows<{ email: string; name: string | null; given_name: string | null; family_name: string | null }>(
      db(),
      sql`select email, name, given_name, family_name from users where id = ${userId}`,
    )
  )[0];

/**
 * The request sequence Microsoft Entra ID's provisioning service sends (its SCIM endpoint tutorial and validator):
 * capitalised ops, a userName that is not an address, the enterprise extension, `emails[type eq "work"].value`
 * paths, `"False"` as a string, groups looked up with `excludedAttributes=members`, members added and removed with
 * `path: members` and a value list.
 */
describe('Microsoft Entra ID SCIM sequence', () => {
  it('creates, updates, disables and deletes a user', async () => {
    const { owner, token } = await provisionedOrg();
    const { unique } = person('entra');
    const userName = `Test_User_${unique}`;
    const workEmail = `${unique}@testuser.com`;
    const externalId = `0a21f0f2-8d2a-4f8e-bf98-${unique.slice(-12).padStart(12, '0')}`;

    const absent = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(absent.body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim(token, 'POST', '/Users', {
      schemas: [USER_SCHEMA, ENTERPRISE],
      externalId,
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: workEmail }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
      [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      userName,
      externalId,
      active: true,
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      emails: [{ primary: true, type: 'work', value: workEmail }],
    });
    // Attributes outside the kept schemas (roles, the enterprise extension) are not stored.
    expect(created.text).not.toContain('Tour Operations');
    // userName is not an address here: the account signs in with the primary (work) email.
    const member = (await roster(owner.token)).find((m) => m.email === workEmail);
    expect(member).toMatchObject({ scim_managed: true, status: 'active', role: 'member' });

    const byUserName = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(byUserName.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    const byExternalId = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`,
    );
    expect(byExternalId.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);

    // Multi-valued and sub-attribute paths, capitalised ops.
    const updated = await scim(
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp([
        { op: 'Replace', path: 'emails[type eq "work"].value', value: `updated.${workEmail}` },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Sales' },
      ]),
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.emails).toEqual([{ primary: true, type: 'work', value: `updated.${workEmail}` }]);
    expect(updated.body.name.familyName).toBe('updatedFamilyName');
    // SCIM created the account, so it manages its profile and address.
    const account = await accountOf(member!.user_id);
    expect(account).toEqual({
      email: `updated.${workEmail}`,
      name: 'givenName familyName',
      given_name: 'givenName',
      family_name: 'updatedFamilyName',
    });

    // Single-valued userName, then a path-less Add whose keys are paths (an older Entra shape).
    const renamed = await scim(
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp([
        { op: 'Replace', path: 'userName', value: `${unique}.renamed@testuser.com` },
        { op: 'Add', value: { displayName: 'Given Family', 'name.givenName': 'Given' } },
      ]),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ userName: `${unique}.renamed@testuser.com`, displayName: 'Given Family' });
    expect(renamed.body.name.givenName).toBe('Given');
    // An address as userName now wins as the sign-in address.
    expect((await accountOf(member!.user_id))?.email).toBe(`${unique}.renamed@testuser.com`);

    // Disable, with the boolean as a string.
    const disabled = await scim(
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp([{ op: 'Replace', path: 'active', value: 'False' }]),
    );
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect((await roster(owner.token)).find((m) => m.user_id === member!.user_id)?.status).toBe('suspended');

    const deleted = await scim(token, 'DELETE', `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expect((await scim(token, 'GET', `/Users/${id}`)).status).toBe(404);
    // The membership is gone from the roster (removed); the account stays for its other organizations.
    expect((await roster(owner.token)).find((m) => m.user_id === member!.user_id)).toBeUndefined();
    expect(await accountOf(member!.user_id)).toBeDefined();
  });

  it('creates a group, renames it, adds and removes members, deletes it', async () => {
    const { token } = await provisionedOrg();
    const users = [];
    for (let i = 0; i < 2; i++) {
      const { unique } = person('entramember');
      const res = await scim(token, 'POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: `${unique}@testuser.com`,
        externalId: unique,
        active: true,
        emails: [{ primary: true, type: 'work', value: `${unique}@testuser.com` }],
      });
      expect(res.status, res.text).toBe(201);
      users.push(res.body.id as string);
    }

    const created = await scim(token, 'POST', '/Groups', {
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
      schemas: [GROUP_SCHEMA, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      displayName: 'displayName',
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      members: [],
    });

    const byId = await scim(token, 'GET', `/Groups/${id}?excludedAttributes=members`);
    expect(byId.status).toBe(200);
    expect(byId.body).not.toHaveProperty('members');
    expect(byId.body).toMatchObject({ id, displayName: 'displayName', meta: { resourceType: 'Group' } });
    const byName = await scim(
      token,
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
    );
    expect(byName.body.totalResults).toBe(1);
    expect(byName.body.Resources[0]).not.toHaveProperty('members');

    const renamed = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([
        { op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' },
      ]),
    );
    expect(renamed.status, renamed.text).toBe(204);

    const added = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([{ op: 'Add', path: 'members', value: users.map((value) => ({ $ref: null, value })) }]),
    );
    expect(added.status, added.text).toBe(204);
    // Entra checks membership with a members filter on the list.
    const memberCheck = (userId: string) =>
      scim(
        token,
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`id eq "${id}" and members[value eq "${userId}"]`)}`,
      );
    expect((await memberCheck(users[0]!)).body.totalResults).toBe(1);

    const removed = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([{ op: 'Remove', path: 'members', value: [{ $ref: null, value: users[0] }] }]),
    );
    expect(removed.status, removed.text).toBe(204);
    expect((await memberCheck(users[0]!)).body.totalResults).toBe(0);
    expect((await memberCheck(users[1]!)).body.totalResults).toBe(1);
    const read = await scim(token, 'GET', `/Groups/${id}`);
    expect(read.body.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    expect(read.body.members.map((m: { value: string }) => m.value)).toEqual([users[1]]);
    expect(read.body.meta.version).toBe('W/"4"');

    expect((await scim(token, 'DELETE', `/Groups/${id}`)).status).toBe(204);
    expect((await scim(token, 'GET', `/Groups/${id}`)).status).toBe(404);
  });
});

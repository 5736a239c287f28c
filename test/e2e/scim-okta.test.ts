import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.js';
import { GROUP_SCHEMA, LIST_RESPONSE, oktaUser, person, scimHarness, USER_SCHEMA } from './scim-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const { scim, patchOp, provisionedOrg, roster, eventsOf } = scimHarness(() => svc);

/**
 * The request sequence of Okta's SCIM 2.0 provisioning (its "SCIM 2.0 test" and the app integration guide): user
 * look-up by userName, create, read, profile update by PUT, deactivation and reactivation by PATCH `replace` without
 * a path, import listing, then group push with Okta's PATCH shapes.
 */
describe('Okta SCIM 2.0 sequence', () => {
  it('provisions, updates, deactivates and reactivates a user', async () => {
    const { owner, token } = await provisionedOrg();
    const { email } = person('okta');

    const config = await scim(token, 'GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toBe('application/scim+json; charset=utf-8');
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 } });

    // Okta first looks the user up; nobody yet.
    const lookup = `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`;
    const none = await scim(token, 'GET', lookup);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      schemas: [LIST_RESPONSE],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const body = oktaUser(email);
    const created = await scim(token, 'POST', '/Users', body);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      schemas: [USER_SCHEMA],
      id: expect.any(String),
      externalId: body.externalId,
      userName: email,
      name: { givenName: 'Test', familyName: 'User' },
      displayName: 'Test User',
      active: true,
      emails: [{ value: email, type: 'work', primary: true }],
      groups: [],
      meta: {
        resourceType: 'User',
        created: expect.any(String),
        lastModified: expect.any(String),
        location: `${svc.deps.config.baseUrl}/api/v1/scim/v2/Users/${id}`,
        version: 'W/"1"',
      },
    });
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.headers.get('etag')).toBe('W/"1"');
    // The password Okta syncs is never stored nor returned.
    expect(created.text).not.toContain('1mz050nq');

    const found = await scim(token, 'GET', lookup);
    expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expect(found.body.Resources[0].id).toBe(id);
    const read = await scim(token, 'GET', `/Users/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    // The organization sees a SCIM-managed member with the baseline role.
    const member = (await roster(owner.token)).find((m) => m.email === email);
    expect(member).toMatchObject({ role: 'member', status: 'active', scim_managed: true, name: 'Test User' });

    // Okta updates profiles with PUT of the whole user.
    const put = await scim(token, 'PUT', `/Users/${id}`, {
      ...body,
      id,
      name: { givenName: 'Tess', familyName: 'User' },
      displayName: 'Tess User',
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ name: { givenName: 'Tess', familyName: 'User' }, displayName: 'Tess User' });
    expect(put.body.meta.version).toBe('W/"2"');
    expect((await roster(owner.token)).find((m) => m.email === email)?.name).toBe('Tess User');

    const deactivated = await scim(
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp([{ op: 'replace', value: { active: false } }]),
    );
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect((await roster(owner.token)).find((m) => m.email === email)?.status).toBe('suspended');
    expect(await eventsOf(owner.tenantId, 'scim.user_deactivated')).toHaveLength(1);

    const reactivated = await scim(
      token,
      'PATCH',
      `/Users/${id}`,
      patchOp([{ op: 'replace', value: { active: true } }]),
    );
    expect(reactivated.body.active).toBe(true);
    expect((await roster(owner.token)).find((m) => m.email === email)?.status).toBe('active');
    expect(await eventsOf(owner.tenantId, 'scim.user_reactivated')).toHaveLength(1);

    // Import: the full listing, paged.
    const all = await scim(token, 'GET', '/Users?startIndex=1&count=100');
    expect(all.body).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    const created_events = await eventsOf(owner.tenantId, 'scim.user_created');
    expect(created_events).toEqual([
      expect.objectContaining({ actor_type: 'service', data: expect.objectContaining({ scim_id: id }) }),
    ]);
  });

  it('pushes a group: create, look up, rename, add and remove members, delete', async () => {
    const { token } = await provisionedOrg();
    const a = await scim(token, 'POST', '/Users', oktaUser(person('grp').email));
    const b = await scim(token, 'POST', '/Users', oktaUser(person('grp').email));
    expect([a.status, b.status]).toEqual([201, 201]);

    const created = await scim(token, 'POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Test SCIMv2',
      members: [],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ schemas: [GROUP_SCHEMA], id, displayName: 'Test SCIMv2', members: [] });

    const lookup = await scim(token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "Test SCIMv2"')}`);
    expect(lookup.body.totalResults).toBe(1);

    // Okta renames with a path-less replace carrying the id.
    const renamed = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([{ op: 'replace', value: { id, displayName: 'Engineering' } }]),
    );
    expect(renamed.status, renamed.text).toBe(204);
    expect(renamed.text).toBe('');

    const added = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([
        {
          op: 'add',
          path: 'members',
          value: [
            { value: a.body.id, display: a.body.userName },
            { value: b.body.id, display: b.body.userName },
          ],
        },
      ]),
    );
    expect(added.status, added.text).toBe(204);
    const read = await scim(token, 'GET', `/Groups/${id}`);
    expect(read.body.displayName).toBe('Engineering');
    expect(read.body.members).toEqual([
      {
        value: a.body.id,
        display: 'Test User',
        $ref: `${svc.deps.config.baseUrl}/api/v1/scim/v2/Users/${a.body.id}`,
        type: 'User',
      },
      expect.objectContaining({ value: b.body.id }),
    ]);
    const user = await scim(token, 'GET', `/Users/${a.body.id}`);
    expect(user.body.groups).toEqual([
      {
        value: id,
        display: 'Engineering',
        $ref: `${svc.deps.config.baseUrl}/api/v1/scim/v2/Groups/${id}`,
        type: 'direct',
      },
    ]);

    const removed = await scim(
      token,
      'PATCH',
      `/Groups/${id}`,
      patchOp([{ op: 'remove', path: `members[value eq "${a.body.id}"]` }]),
    );
    expect(removed.status, removed.text).toBe(204);
    expect((await scim(token, 'GET', `/Groups/${id}`)).body.members).toEqual([
      expect.objectContaining({ value: b.body.id }),
    ]);
    expect((await scim(token, 'GET', `/Users/${a.body.id}`)).body.groups).toEqual([]);

    expect((await scim(token, 'DELETE', `/Groups/${id}`)).status).toBe(204);
    expect((await scim(token, 'GET', `/Groups/${id}`)).status).toBe(404);
    // The users stay.
    expect((await scim(token, 'GET', `/Users/${b.body.id}`)).status).toBe(200);
  });
});

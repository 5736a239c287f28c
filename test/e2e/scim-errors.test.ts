import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { ERROR_SCHEMA, oktaUser, person, scimHarness } from './scim-support.js';

let svc: TestService;
let token: string;
beforeAll(async () => {
  svc = await startService();
  ({ token } = await provisionedOrg());
});
afterAll(async () => {
  await svc?.close();
});

const { scim, scimUrl, patchOp, provisionedOrg, expectScimError } = scimHarness(() => svc);
const NO_ID = '00000000-0000-7000-8000-000000000000';

async function newUser(extra: Record<string, unknown> = {}) {
  const res = await scim(token, 'POST', '/Users', oktaUser(person('err').email, extra));
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; userName: string; meta: { version: string } };
}

describe('authentication', () => {
  it('answers 401 as an RFC 7644 document for a missing, unknown or malformed token', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer scim_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { authorization: 'Bearer not-a-token' },
      { authorization: 'Basic dXNlcjpwYXNz' },
    ]) {
      const res = await request(scimUrl('/Users'), { headers });
      expectScimError(res, 401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="scim"');
    }
  });
});

describe('unknown resources', () => {
  it('answers 404 for unknown and malformed ids, and unknown paths under the SCIM prefix', async () => {
    for (const resource of ['Users', 'Groups']) {
      for (const id of [NO_ID, 'not-a-uuid']) {
        expectScimError(await scim(token, 'GET', `/${resource}/${id}`), 404);
        expectScimError(await scim(token, 'PATCH', `/${resource}/${id}`, patchOp([{ op: 'replace', value: {} }])), 404);
        expectScimError(await scim(token, 'DELETE', `/${resource}/${id}`), 404);
      }
    }
    expectScimError(await scim(token, 'PUT', `/Users/${NO_ID}`, oktaUser(person().email)), 404);
    expectScimError(await scim(token, 'GET', '/Bulk'), 404);
    expectScimError(await scim(token, 'GET', '/Schemas/urn:unknown'), 404);
    expectScimError(await scim(undefined, 'GET', '/Nowhere'), 404);
  });
});

describe('uniqueness (409)', () => {
  it('refuses a taken userName (any case) and a taken group displayName', async () => {
    const user = await newUser();
    expectScimError(await scim(token, 'POST', '/Users', oktaUser(user.userName.toUpperCase())), 409, 'uniqueness');
    const other = await newUser();
    expectScimError(
      await scim(
        token,
        'PATCH',
        `/Users/${other.id}`,
        patchOp([{ op: 'replace', path: 'userName', value: user.userName }]),
      ),
      409,
      'uniqueness',
    );
    const group = await scim(token, 'POST', '/Groups', { displayName: 'Unique Group' });
    expect(group.status).toBe(201);
    expectScimError(await scim(token, 'POST', '/Groups', { displayName: 'unique group' }), 409, 'uniqueness');
    const second = await scim(token, 'POST', '/Groups', { displayName: 'Second Group' });
    expectScimError(
      await scim(
        token,
        'PATCH',
        `/Groups/${second.body.id}`,
        patchOp([{ op: 'replace', path: 'displayName', value: 'UNIQUE GROUP' }]),
      ),
      409,
      'uniqueness',
    );
  });
});

describe('bad requests (400)', () => {
  it('malformed bodies are invalidSyntax; other media types 415; application/json is accepted too', async () => {
    const malformed = await request(scimUrl('/Users'), {
      method: 'POST',
      token,
      body: '{"userName": ',
      headers: { 'content-type': 'application/scim+json' },
    });
    expectScimError(malformed, 400, 'invalidSyntax');
    expectScimError(await scim(token, 'POST', '/Users', ['not', 'an', 'object']), 400, 'invalidSyntax');
    const plain = await request(scimUrl('/Users'), {
      method: 'POST',
      token,
      body: 'userName=x',
      headers: { 'content-type': 'text/plain' },
    });
    expectScimError(plain, 415);
    const asJson = await request(scimUrl('/Users'), { method: 'POST', token, json: oktaUser(person('json').email) });
    expect(asJson.status).toBe(201);
    expect(asJson.headers.get('content-type')).toBe('application/scim+json; charset=utf-8');
    const huge = await scim(token, 'POST', '/Users', oktaUser(person().email, { displayName: 'x'.repeat(1_100_000) }));
    expectScimError(huge, 413);
  });

  it('refuses Users without a userName, without an address, or with values of the wrong type', async () => {
    const { email } = person('bad');
    const { userName: _missing, ...noUserName } = oktaUser(email);
    expectScimError(await scim(token, 'POST', '/Users', noUserName), 400, 'invalidValue');
    expectScimError(await scim(token, 'POST', '/Users', { userName: 'no-address', emails: [] }), 400, 'invalidValue');
    expectScimError(await scim(token, 'POST', '/Users', oktaUser(email, { active: 'maybe' })), 400, 'invalidValue');
    expectScimError(await scim(token, 'POST', '/Users', oktaUser(email, { name: 'Ann' })), 400, 'invalidValue');
    expectScimError(
      await scim(token, 'POST', '/Users', oktaUser(email, { displayName: 'a\u202eb' })),
      400,
      'invalidValue',
    );
    expectScimError(await scim(token, 'POST', '/Users', oktaUser(email, { userName: 42 })), 400, 'invalidValue');
    expectScimError(await scim(token, 'POST', '/Groups', { members: [] }), 400, 'invalidValue');
    expectScimError(
      await scim(token, 'POST', '/Groups', { displayName: 'G', members: [{ value: NO_ID }] }),
      400,
      'invalidValue',
    );
    // Nothing was stored.
    const listed = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect(listed.body.totalResults).toBe(0);
  });

  it('refuses PATCH messages it cannot apply, with the RFC 7644 scimType, and applies nothing of them', async () => {
    const user = await newUser();
    const cases: Array<[unknown, string]> = [
      [{ schemas: [] }, 'invalidSyntax'],
      [patchOp([]), 'invalidSyntax'],
      [patchOp([{ op: 'move', path: 'userName', value: 'x' }]), 'invalidSyntax'],
      [patchOp([{ op: 'replace', path: 'displayName' }]), 'invalidSyntax'],
      [patchOp([{ op: 'remove' }]), 'noTarget'],
      [patchOp([{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }]), 'invalidPath'],
      [patchOp([{ op: 'replace', path: 'name.givenName.first', value: 'x' }]), 'invalidPath'],
      [patchOp([{ op: 'replace', path: 'displayName[value eq "x"]', value: 'x' }]), 'invalidPath'],
      [patchOp([{ op: 'replace', path: 'emails[value co "nowhere"].type', value: 'home' }]), 'noTarget'],
      [patchOp([{ op: 'replace', path: 'active', value: 'maybe' }]), 'invalidValue'],
      [patchOp([{ op: 'remove', path: 'userName' }]), 'invalidValue'],
      [patchOp([{ op: 'replace', path: 'id', value: NO_ID }]), 'mutability'],
      [patchOp([{ op: 'replace', value: { id: NO_ID } }]), 'mutability'],
      [patchOp([{ op: 'add', path: 'groups', value: [{ value: NO_ID }] }]), 'mutability'],
      [patchOp([{ op: 'replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' }]), 'mutability'],
    ];
    for (const [body, scimType] of cases) {
      const res = await scim(token, 'PATCH', `/Users/${user.id}`, body);
      expectScimError(res, 400, scimType);
    }
    // A valid operation before a failing one is not applied either.
    const mixed = await scim(
      token,
      'PATCH',
      `/Users/${user.id}`,
      patchOp([
        { op: 'replace', path: 'displayName', value: 'Changed' },
        { op: 'replace', path: 'active', value: 'maybe' },
      ]),
    );
    expectScimError(mixed, 400, 'invalidValue');
    const read = await scim(token, 'GET', `/Users/${user.id}`);
    expect(read.body.displayName).toBe('Test User');
    expect(read.body.meta.version).toBe('W/"1"');

    const group = await scim(token, 'POST', '/Groups', { displayName: 'Patch errors' });
    for (const [body, scimType] of [
      [patchOp([{ op: 'add', path: 'members[value eq "x"]', value: [{ value: user.id }] }]), 'invalidPath'],
      [patchOp([{ op: 'remove', path: 'members[display eq "x"]' }]), 'invalidPath'],
      [patchOp([{ op: 'add', path: 'members', value: [{ display: 'no value' }] }]), 'invalidValue'],
      [patchOp([{ op: 'replace', path: 'members.display', value: 'x' }]), 'mutability'],
    ] as const) {
      expectScimError(await scim(token, 'PATCH', `/Groups/${group.body.id}`, body), 400, scimType);
    }
  });

  it('refuses malformed query parameters', async () => {
    const res = await scim(token, 'GET', '/Users?count=many');
    expectScimError(res, 400, 'invalidValue');
    expect(res.body.schemas).toEqual([ERROR_SCHEMA]);
  });
});

describe('versions (ETag)', () => {
  it('If-Match with an old version answers 412; If-None-Match with the current one 304', async () => {
    const user = await newUser();
    const first = await scim(token, 'GET', `/Users/${user.id}`);
    expect(first.headers.get('etag')).toBe('W/"1"');
    expect((await scim(token, 'GET', `/Users/${user.id}`, undefined, { 'if-none-match': 'W/"1"' })).status).toBe(304);
    const changed = await scim(
      token,
      'PATCH',
      `/Users/${user.id}`,
      patchOp([{ op: 'replace', path: 'displayName', value: 'Version two' }]),
      { 'if-match': 'W/"1"' },
    );
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('W/"2"');
    const stale = await scim(
      token,
      'PATCH',
      `/Users/${user.id}`,
      patchOp([{ op: 'replace', path: 'displayName', value: 'Lost update' }]),
      { 'if-match': 'W/"1"' },
    );
    expectScimError(stale, 412);
    expectScimError(await scim(token, 'DELETE', `/Users/${user.id}`, undefined, { 'if-match': 'W/"1"' }), 412);
    expect((await scim(token, 'GET', `/Users/${user.id}`, undefined, { 'if-none-match': 'W/"1"' })).status).toBe(200);
    expect((await scim(token, 'GET', `/Users/${user.id}`)).body.displayName).toBe('Version two');
    // An unchanged PATCH keeps the version.
    const same = await scim(
      token,
      'PATCH',
      `/Users/${user.id}`,
      patchOp([{ op: 'replace', path: 'displayName', value: 'Version two' }]),
    );
    expect(same.body.meta.version).toBe('W/"2"');
    expect((await scim(token, 'DELETE', `/Users/${user.id}`, undefined, { 'if-match': 'W/"2"' })).status).toBe(204);
  });
});

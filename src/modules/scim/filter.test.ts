import { describe, expect, it } from 'vitest';
import { equalities, FilterError, matchesElement, parseFilter, parsePatchPath } from './filter.js';

describe('parseFilter', () => {
  it('parses comparisons, presence and every operator, without regard to case', () => {
    expect(parseFilter('userName eq "bjensen"')).toEqual({ op: 'eq', path: { attr: 'userName' }, value: 'bjensen' });
    expect(parseFilter('title pr')).toEqual({ op: 'pr', path: { attr: 'title' } });
    for (const op of ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']) {
      expect(parseFilter(`meta.lastModified ${op.toUpperCase()} "2011-05-13T04:42:34Z"`)).toEqual({
        op,
        path: { attr: 'meta', sub: 'lastModified' },
        value: '2011-05-13T04:42:34Z',
      });
    }
    expect(parseFilter('active eq true')).toMatchObject({ value: true });
    expect(parseFilter('active eq False'.replace('False', 'false'))).toMatchObject({ value: false });
    expect(parseFilter('manager eq null')).toMatchObject({ value: null });
    expect(parseFilter('age gt -1.5e2')).toMatchObject({ value: -150 });
  });

  it('reads schema URIs, sub-attributes and JSON string escapes', () => {
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName co "O\'Malley"')).toEqual({
      op: 'co',
      path: { uri: 'urn:ietf:params:scim:schemas:core:2.0:User', attr: 'name', sub: 'familyName' },
      value: "O'Malley",
    });
    expect(parseFilter('displayName eq "a \\"quoted\\" name ] ( ["')).toMatchObject({ value: 'a "quoted" name ] ( [' });
    expect(parseFilter('displayName eq "caf\\u00e9"')).toMatchObject({ value: 'café' });
  });

  it('gives "and" precedence over "or", and honours not and parentheses', () => {
    expect(parseFilter('a eq 1 or b eq 2 and c eq 3')).toEqual({
      op: 'or',
      left: { op: 'eq', path: { attr: 'a' }, value: 1 },
      right: {
        op: 'and',
        left: { op: 'eq', path: { attr: 'b' }, value: 2 },
        right: { op: 'eq', path: { attr: 'c' }, value: 3 },
      },
    });
    expect(parseFilter('(a eq 1 or b eq 2) and c eq 3')).toMatchObject({ op: 'and', left: { op: 'or' } });
    expect(parseFilter('not (a pr) AND b pr')).toEqual({
      op: 'and',
      left: { op: 'not', filter: { op: 'pr', path: { attr: 'a' } } },
      right: { op: 'pr', path: { attr: 'b' } },
    });
  });

  it('parses value filters on multi-valued attributes', () => {
    expect(parseFilter('emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp"]')).toEqual({
      op: 'or',
      left: {
        op: 'valuePath',
        path: { attr: 'emails' },
        filter: {
          op: 'and',
          left: { op: 'eq', path: { attr: 'type' }, value: 'work' },
          right: { op: 'co', path: { attr: 'value' }, value: '@example.com' },
        },
      },
      right: { op: 'valuePath', path: { attr: 'ims' }, filter: { op: 'eq', path: { attr: 'type' }, value: 'xmpp' } },
    });
  });

  it('refuses input outside the grammar', () => {
    for (const text of [
      '',
      '   ',
      'userName',
      'userName eq',
      'userName xx "a"',
      'userName eq bare',
      'userName eq "a" and',
      'userName eq "a" userName eq "b"',
      '(userName eq "a"',
      'userName eq "a")',
      'not userName eq "a"',
      'emails[type eq "work"',
      'emails[type[value eq "x"] eq "y"]',
      'name.givenName[value eq "x"]',
      'a.b.c eq "x"',
      '1abc eq "x"',
      'userName eq "unterminated',
      'userName eq "bad \\x escape"',
      `userName eq "${'a'.repeat(2000)}"`,
      `${'('.repeat(20)}a pr${')'.repeat(20)}`,
    ]) {
      expect(() => parseFilter(text), text).toThrow(FilterError);
    }
  });
});

describe('parsePatchPath', () => {
  it('parses attributes, sub-attributes and value filters with a trailing sub-attribute', () => {
    expect(parsePatchPath('userName')).toEqual({ path: { attr: 'userName' } });
    expect(parsePatchPath('name.givenName')).toEqual({ path: { attr: 'name', sub: 'givenName' } });
    expect(parsePatchPath('emails[type eq "work"].value')).toEqual({
      path: { attr: 'emails' },
      filter: { op: 'eq', path: { attr: 'type' }, value: 'work' },
      sub: 'value',
    });
    expect(parsePatchPath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')).toEqual({
      path: { attr: 'members' },
      filter: { op: 'eq', path: { attr: 'value' }, value: '2819c223-7f76-453a-919d-413861904646' },
    });
    expect(parsePatchPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department')).toEqual({
      path: { uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', attr: 'department' },
    });
    // A "]" inside the filter's string does not end it.
    expect(parsePatchPath('emails[value eq "a]b"].type').filter).toMatchObject({ value: 'a]b' });
  });

  it('refuses malformed paths', () => {
    for (const text of [
      '',
      'emails[type eq "work"',
      'emails[]',
      'emails[type eq "work"]value',
      'emails[type eq "work"].value.x',
      'name.givenName[type eq "x"]',
      'emails[type eq "work"] extra',
      'a b',
    ]) {
      expect(() => parsePatchPath(text), text).toThrow(FilterError);
    }
  });
});

describe('matchesElement and equalities', () => {
  const work = { value: 'Ann@Example.com', type: 'work', primary: true };
  it('evaluates a value filter on one element, strings without regard to case', () => {
    expect(matchesElement(parseFilter('type eq "WORK"'), work)).toBe(true);
    expect(matchesElement(parseFilter('value ew "@example.com" and primary eq true'), work)).toBe(true);
    expect(matchesElement(parseFilter('Type eq "home" or not (display pr)'), work)).toBe(true);
    expect(matchesElement(parseFilter('display pr'), work)).toBe(false);
    expect(matchesElement(parseFilter('value sw "bob"'), work)).toBe(false);
    expect(matchesElement(parseFilter('display eq null'), work)).toBe(true);
    expect(matchesElement(parseFilter('type ne "work"'), work)).toBe(false);
  });

  it('extracts the eq terms of a conjunction, and nothing from anything else', () => {
    expect(equalities(parseFilter('type eq "work" and primary eq true'))).toEqual({ type: 'work', primary: true });
    expect(equalities(parseFilter('type eq "work" or type eq "home"'))).toBeUndefined();
    expect(equalities(parseFilter('value co "x"'))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import { authenticationFailure, parseBasicCredentials, readClientCredentials } from './client-auth.js';
import type { TokenClientRow } from './store.js';

/** What a client sends (RFC 6749 section 2.3.1): each part form-encoded, joined by a colon, base64-encoded. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
const header = (id: string, secret: string, encode = formEncode) =>
  `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`, 'utf8').toString('base64')}`;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    return { error: (error as OAuthError).error, status: (error as OAuthError).status };
  }
  throw new Error('expected a refusal');
};

describe('parseBasicCredentials (RFC 6749 section 2.3.1)', () => {
  it('decodes a plain id and secret', () => {
    expect(parseBasicCredentials(header('cl_abc', 's3cret'))).toEqual({ clientId: 'cl_abc', secret: 's3cret' });
  });

  it('form-decodes both parts, so colons, spaces, plus signs, percent signs and non-ASCII text survive', () => {
    const id = 'client:with space+plus%25';
    const secret = 'p@ss:wörd/+=&?%';
    expect(formEncode(secret)).not.toContain(':');
    expect(parseBasicCredentials(header(id, secret))).toEqual({ clientId: id, secret });
  });

  it('reads `+` as a space and percent-escapes as their bytes (application/x-www-form-urlencoded)', () => {
    const raw = `Basic ${Buffer.from('my+client:a%2Bb+c%3Ad%C3%A9').toString('base64')}`;
    expect(parseBasicCredentials(raw)).toEqual({ clientId: 'my client', secret: 'a+b c:dé' });
  });

  it('splits at the first colon: an unencoded colon in the secret stays in the secret', () => {
    const raw = `Basic ${Buffer.from('cl_abc:se:cret').toString('base64')}`;
    expect(parseBasicCredentials(raw)).toEqual({ clientId: 'cl_abc', secret: 'se:cret' });
  });

  it('accepts the scheme in any case and an empty secret (which then fails authentication, not parsing)', () => {
    const raw = header('cl_abc', '').replace('Basic', 'bAsIc');
    expect(parseBasicCredentials(raw)).toEqual({ clientId: 'cl_abc', secret: '' });
  });

  it('ignores an absent header and other schemes', () => {
    expect(parseBasicCredentials(undefined)).toBeNull();
    expect(parseBasicCredentials('Bearer abc.def.ghi')).toBeNull();
    expect(parseBasicCredentials('Basicfoo')).toBeNull();
  });

  it('refuses what says Basic but is not its encoding: invalid_request (400)', () => {
    const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
    for (const raw of [
      'Basic',
      'Basic ',
      'Basic !!!!',
      'Basic Y2xfYWJjOnM', // unpadded
      'Basic Y2xfYWJjOnM=== ',
      'Basic a b',
      `Basic ${b64('no-colon-here')}`,
      `Basic ${b64(':secret-without-id')}`,
      `Basic ${b64('cl_abc:%zz')}`, // a broken percent-escape
      `Basic ${b64('cl_abc:%E9')}`, // percent-escape of a byte that is not UTF-8
      `Basic ${b64('cl_abc:\xe9')}`, // raw bytes that are not UTF-8
    ]) {
      expect(
        refusal(() => parseBasicCredentials(raw)),
        raw,
      ).toEqual({ error: 'invalid_request', status: 400 });
    }
  });
});

describe('readClientCredentials', () => {
  const basic = header('cl_abc', 'secret');

  it('takes HTTP Basic, a client_id field equal to it, or the form fields', () => {
    expect(readClientCredentials({}, basic)).toEqual({
      clientId: 'cl_abc',
      secret: 'secret',
      method: 'client_secret_basic',
    });
    expect(readClientCredentials({ client_id: 'cl_abc' }, basic).method).toBe('client_secret_basic');
    expect(readClientCredentials({ client_id: 'cl_abc', client_secret: 'secret' }, undefined)).toEqual({
      clientId: 'cl_abc',
      secret: 'secret',
      method: 'client_secret_post',
    });
    expect(readClientCredentials({ client_id: 'cl_pub' }, undefined)).toEqual({
      clientId: 'cl_pub',
      secret: undefined,
      method: 'none',
    });
  });

  it('refuses two methods at once or two different ids (invalid_request), and no client at all (invalid_client)', () => {
    expect(refusal(() => readClientCredentials({ client_secret: 'secret' }, basic))).toEqual({
      error: 'invalid_request',
      status: 400,
    });
    expect(refusal(() => readClientCredentials({ client_id: 'cl_other' }, basic))).toEqual({
      error: 'invalid_request',
      status: 400,
    });
    expect(refusal(() => readClientCredentials({}, undefined))).toEqual({ error: 'invalid_client', status: 401 });
    expect(refusal(() => readClientCredentials({ client_secret: 'secret' }, undefined))).toEqual({
      error: 'invalid_client',
      status: 401,
    });
  });
});

describe('authenticationFailure', () => {
  const client = (type: 'confidential' | 'public', secret?: string) =>
    ({ clientType: type, secretHash: secret === undefined ? null : sha256Hex(secret) }) as TokenClientRow;
  const presented = (secret: string | undefined) => ({
    clientId: 'cl_x',
    secret,
    method: secret === undefined ? ('none' as const) : ('client_secret_post' as const),
  });

  it('passes a confidential client with its secret and a public client with none', () => {
    expect(authenticationFailure(client('confidential', 'right'), presented('right'))).toBeNull();
    expect(authenticationFailure(client('public'), presented(undefined))).toBeNull();
  });

  it('names every failure: unknown client, wrong or missing secret, a secret from a public client', () => {
    expect(authenticationFailure(undefined, presented('right'))).toBe('unknown_client');
    expect(authenticationFailure(client('confidential', 'right'), presented('wrong'))).toBe('secret_mismatch');
    expect(authenticationFailure(client('confidential', 'right'), presented(''))).toBe('secret_mismatch');
    expect(authenticationFailure(client('confidential', 'right'), presented(undefined))).toBe('secret_missing');
    expect(authenticationFailure(client('public'), presented('anything'))).toBe('public_client_secret');
  });
});

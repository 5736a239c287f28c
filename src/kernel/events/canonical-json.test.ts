import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 0, y: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,1,{"y":1,"z":0}]},"b":1}',
    );
  });

  it('gives the same text for the same entry whatever order its keys were written in', () => {
    const one = { actor: { type: 'human', id: 'u1' }, action: 'x', data: { to: 2, from: 1 } };
    const other = { data: { from: 1, to: 2 }, action: 'x', actor: { id: 'u1', type: 'human' } };
    expect(canonicalJson(one)).toBe(canonicalJson(other));
  });

  it('orders keys by UTF-16 code unit, not by locale or number', () => {
    expect(canonicalJson({ a: 1, B: 2, _: 3, '10': 4, '9': 5, é: 6 })).toBe('{"10":4,"9":5,"B":2,"_":3,"a":1,"é":6}');
  });

  it('leaves out undefined members and writes undefined elsewhere as null', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('writes scalars as JSON does, non-finite numbers as null', () => {
    expect(canonicalJson('a"b\n')).toBe('"a\\"b\\n"');
    expect(canonicalJson(0)).toBe('0');
    expect(canonicalJson(-1.5)).toBe('-1.5');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(Number.NaN)).toBe('null');
    expect(canonicalJson(Number.POSITIVE_INFINITY)).toBe('null');
  });

  it('escapes keys, and writes empty containers', () => {
    expect(canonicalJson({ 'a"b': {}, c: [] })).toBe('{"a\\"b":{},"c":[]}');
  });

  it('parses back to the same value', () => {
    const value = { z: [1, 'two', { k: false }], a: { nested: { deeper: 'x' } } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

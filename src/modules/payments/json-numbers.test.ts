import { describe, expect, it } from 'vitest';
import { inexactNumberAt } from './json-numbers.js';

describe('inexactNumberAt', () => {
  it('passes integers and strings, wherever they are', () => {
    expect(inexactNumberAt('{"action":"a","context":{"a":1,"b":[1,-2,{"c":0}],"s":"1.5e3","t":true,"n":null}}')).toBe(
      undefined,
    );
    expect(inexactNumberAt('{"context":{"max":9007199254740991,"min":-9007199254740991}}')).toBe(undefined);
  });

  it('names the first number with a fraction or an exponent, 1.0 included', () => {
    expect(inexactNumberAt('{"context":{"a":1.0}}')).toBe('context.a');
    expect(inexactNumberAt('{"context":{"b":[1,2,{"c":3.25}]}}')).toBe('context.b.2.c');
    expect(inexactNumberAt('{"context":{"k\\"x":1e3}}')).toBe('context.k"x');
    expect(inexactNumberAt('{ "context" : { "a" : [ 1 , 2E0 ] } }')).toBe('context.a.1');
    expect(inexactNumberAt('{"context":{"a":-0.0}}')).toBe('context.a');
    expect(inexactNumberAt('1.5')).toBe('body');
  });

  it('refuses integers beyond the exact range of a JSON parse', () => {
    expect(inexactNumberAt('{"context":{"a":9007199254740993}}')).toBe('context.a');
    expect(inexactNumberAt('{"context":{"a":-9007199254740992}}')).toBe('context.a');
  });
});

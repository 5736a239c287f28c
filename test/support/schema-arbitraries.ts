import fc from 'fast-check';

/**
 * fast-check arbitraries derived from JSON Schemas (the OpenAPI document's route schemas), for property-based
 * tests over HTTP. Values mostly follow the schema (required and optional members, formats, patterns, lengths,
 * enums, bounds, arrays, nested objects) so requests get past validation into the services, and now and then
 * step outside it (a member of the wrong type, a required member missing, an unknown member, one past a bound),
 * so the refusals are exercised too. fast-check shrinks a failing value and reports the seed that replays it.
 */
type Schema = Record<string, any>;

/** How deep a drawn value nests at most: request bodies are at most 32 levels deep (json-body.ts). */
const MAX_DEPTH = 6;
/** Drawn strings stay short unless the schema asks for more, so a run stays fast. */
const MAX_DRAWN_LENGTH = 40;
const MAX_DRAWN_ITEMS = 4;

const PIECES = ['a', 'Z', '0', ' ', '-', '_', '.', '@', '/', '%', 'é', 'ß', '中', '😀', '\t', '\n', "'", '"', '\\'];
/** Values the routes give meaning to (addresses, callbacks, scopes, timestamps, ids), and awkward ones. */
const SAMPLES = [
  '',
  'x',
  'person@example.com',
  'https://app.example.com/callback',
  'openid email',
  '2026-01-01T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'members:read',
  ' padded ',
  'ＡＢＣ',
  'a'.repeat(300),
];
const dates = fc.date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2100-01-01') });
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.oneof(
    { arbitrary: fc.constantFrom('person@example.com', 'PERSON@Example.COM'), weight: 2 },
    { arbitrary: fc.emailAddress({ size: 'small' }), weight: 2 },
    { arbitrary: fc.constant('not-an-email'), weight: 1 },
  ),
  uri: fc.oneof(
    fc.constantFrom('https://app.example.com/x', 'http://127.0.0.1:9/cb', 'not a uri'),
    fc.webUrl({ size: 'small' }),
  ),
  'date-time': fc.oneof(
    dates.map((date) => date.toISOString()),
    fc.constant('yesterday'),
  ),
  date: fc.oneof(
    dates.map((date) => date.toISOString().slice(0, 10)),
    fc.constant('01/01/2026'),
  ),
};

/** Anything of another type than a schema asks for. */
const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(null, true, 0, -1, 1.5, 'text', [], {}, [1, 'a'], { a: 1 });
const piece = fc.constantFrom(...PIECES);

/**
 * Text that reaches the database unless refused (issue 17 item 3): U+0000, which PostgreSQL cannot store in `text`
 * or `jsonb`, and an unpaired surrogate, which is not Unicode text. One surrogate put into well-formed text always
 * leaves one unpaired (the surrogates of well-formed text come in pairs). Shrinks towards NUL.
 */
export const malformedText: fc.Arbitrary<string> = fc.oneof(
  fc.constant(String.fromCharCode(0)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
);

export class SchemaArbitraries {
  constructor(private readonly components: Record<string, Schema> = {}) {}

  /** Values for `schema`: mostly of its shape, sometimes not. */
  value(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    if (depth > MAX_DEPTH) return fc.constant(null);
    const shaped = this.shaped(this.resolve(schema), depth);
    return fc.oneof({ arbitrary: shaped, weight: 24 }, { arbitrary: wrongType, weight: 1 });
  }

  /** `value(schema)` with malformed text put into one string, one property name, or a new member. */
  malformed(schema: Schema): fc.Arbitrary<unknown> {
    return fc
      .tuple(this.value(schema), malformedText, fc.nat(), fc.nat())
      .map(([value, bad, site, at]) => withMalformedText(value, bad, site, at));
  }

  text(schema: Schema = {}): fc.Arbitrary<string> {
    const maxLength = Math.min(schema.maxLength ?? MAX_DRAWN_LENGTH, MAX_DRAWN_LENGTH);
    const minLength = Math.min(schema.minLength ?? 0, maxLength);
    const variants: Array<fc.WeightedArbitrary<string>> = [
      { arbitrary: fc.string({ minLength, maxLength, unit: piece }), weight: 4 },
      { arbitrary: fc.constantFrom(...SAMPLES), weight: 3 },
      { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 2 },
      // Any code point, control characters included (surrogate halves excepted).
      { arbitrary: fc.string({ maxLength: 8, unit: 'binary' }), weight: 1 },
    ];
    const format = FORMATS[schema.format];
    if (format) variants.unshift({ arbitrary: format, weight: 30 });
    if (typeof schema.pattern === 'string') {
      const matching = fc.stringMatching(new RegExp(schema.pattern, 'u'), {
        maxLength: schema.maxLength ?? 64,
        size: 'small',
      });
      variants.unshift({ arbitrary: matching, weight: 30 });
    }
    if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000) {
      variants.push({ arbitrary: fc.constant('a'.repeat(schema.maxLength + 1)), weight: 1 });
    }
    return fc.oneof(...variants);
  }

  private resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
      current = this.components[current.$ref.split('/').pop()!] ?? {};
    }
    return current ?? {};
  }

  private shaped(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const choices = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(choices) && choices.length > 0) {
      return fc.oneof(...choices.map((choice: Schema) => this.value(choice, depth + 1)));
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.value(schema.allOf[0], depth + 1);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      return fc.oneof({ arbitrary: fc.constantFrom(...schema.enum), weight: 9 }, { arbitrary: this.text(), weight: 1 });
    }
    if (Array.isArray(schema.type)) {
      return fc.oneof(...schema.type.map((type: string) => this.shaped({ ...schema, type }, depth)));
    }
    switch (schema.type) {
      case 'string':
        return this.text(schema);
      case 'integer':
      case 'number':
        return this.number(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      case undefined:
        if (schema.properties) return this.object(schema, depth);
        return fc.oneof(this.text(), fc.record({ key: this.text() }));
      default:
        return this.text();
    }
  }

  private number(schema: Schema): fc.Arbitrary<number> {
    const min = schema.minimum ?? -5;
    const max = schema.maximum ?? Math.max(min + 1000, 1000);
    const inside =
      schema.type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    const outside = fc.constantFrom(min - 1, max + 1, 2 ** 53, -(2 ** 31));
    return fc.oneof({ arbitrary: inside, weight: 9 }, { arbitrary: outside, weight: 1 });
  }

  private array(schema: Schema, depth: number): fc.Arbitrary<unknown[]> {
    const maxLength = Math.min(schema.maxItems ?? MAX_DRAWN_ITEMS, MAX_DRAWN_ITEMS);
    const minLength = Math.min(schema.minItems ?? 0, maxLength);
    const items = this.value(schema.items ?? {}, depth + 1);
    return schema.uniqueItems
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
      : fc.array(items, { minLength, maxLength });
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const members = Object.entries<Schema>(schema.properties ?? {});
    const unknownMembers = fc.dictionary(fc.string({ minLength: 1, maxLength: 8, unit: piece }), this.text(), {
      minKeys: 1,
      maxKeys: 2,
      noNullPrototype: true,
    });
    if (members.length === 0) {
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const values = this.value(schema.additionalProperties, depth + 1);
        return fc.dictionary(fc.string({ maxLength: 8, unit: piece }), values, { maxKeys: 3, noNullPrototype: true });
      }
      return fc.oneof(fc.constant({}), unknownMembers);
    }
    const model = Object.fromEntries(members.map(([name, member]) => [name, this.value(member, depth + 1)]));
    const required = (schema.required ?? []).filter((name: string) => name in model);
    const shaped = fc.oneof(
      { arbitrary: fc.record(model, { requiredKeys: required, noNullPrototype: true }), weight: 19 },
      // A required member may be missing.
      { arbitrary: fc.record(model, { requiredKeys: [], noNullPrototype: true }), weight: 1 },
    );
    const extra = fc.oneof({ arbitrary: fc.constant({}), weight: 11 }, { arbitrary: unknownMembers, weight: 1 });
    return fc.tuple(shaped, extra).map(([known, unknown]) => ({ ...unknown, ...known }));
  }
}

/**
 * A copy of `value` with `bad` put into one of its sites (a string, at code unit `at`; a property name; a new
 * member of an object), the `site`-th in document order, so shrinking `value` keeps the input malformed.
 */
export function withMalformedText(value: unknown, bad: string, site: number, at: number): unknown {
  const copy = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  if (typeof copy === 'string') return insert(copy, bad, at);
  const sites: Array<() => void> = [];
  const walk = (node: any) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        if (typeof item === 'string') {
          sites.push(() => {
            node[index] = insert(item, bad, at);
          });
        } else walk(item);
      });
    } else if (node && typeof node === 'object') {
      sites.push(() => {
        node[`name${bad}`] = 'value';
      });
      for (const [name, item] of Object.entries(node)) {
        sites.push(() => renameMember(node, name, insert(name, bad, at)));
        if (typeof item === 'string') {
          sites.push(() => {
            node[name] = insert(item, bad, at);
          });
        } else walk(item);
      }
    }
  };
  walk(copy);
  if (sites.length === 0) return { text: bad };
  sites[site % sites.length]!();
  return copy;
}

function insert(text: string, bad: string, at: number): string {
  const position = at % (text.length + 1);
  return `${text.slice(0, position)}${bad}${text.slice(position)}`;
}

function renameMember(node: Record<string, unknown>, from: string, to: string) {
  node[to] = node[from];
  delete node[from];
}

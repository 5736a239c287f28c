/**
 * Seeded random values from JSON Schemas (the OpenAPI document's), for property-based tests over HTTP. A small
 * stand-in for fast-check's arbitraries: every run with one seed draws the same values, so a failure names the
 * seed and the input that reproduces it.
 */
type Schema = Record<string, any>;

/** mulberry32: a tiny, well-mixed 32-bit generator. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Text that reaches the database unless refused: NUL and unpaired surrogates (issue 17 item 3). */
export const MALFORMED_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\ud83d'];
const PIECES = ['a', 'Z', '0', ' ', '-', '_', '.', '@', '/', '%', 'é', 'ß', '中', '😀', '\t', '\n', "'", '"', '\\'];
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
const FORMAT_SAMPLES: Record<string, string[]> = {
  email: ['person@example.com', 'PERSON@Example.COM', 'not-an-email'],
  uri: ['https://app.example.com/x', 'http://127.0.0.1:9/cb', 'not a uri'],
  'date-time': ['2026-01-01T00:00:00Z', 'yesterday'],
  date: ['2026-01-01', '01/01/2026'],
};

export class SchemaSampler {
  constructor(
    private readonly random: () => number,
    private readonly components: Record<string, Schema> = {},
  ) {}

  private chance(p: number) {
    return this.random() < p;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)]!;
  }

  private resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
      current = this.components[current.$ref.split('/').pop()!] ?? {};
    }
    return current ?? {};
  }

  text(schema: Schema = {}): string {
    if (schema.format && FORMAT_SAMPLES[schema.format] && this.chance(0.7))
      return this.pick(FORMAT_SAMPLES[schema.format]!);
    if (this.chance(0.3)) return this.pick(SAMPLES);
    const max = Math.min(schema.maxLength ?? 40, 40);
    const min = Math.min(schema.minLength ?? 0, max);
    const length = min + Math.floor(this.random() * (max - min + 1));
    let out = '';
    for (let i = 0; i < length; i++) out += this.pick(PIECES);
    return out;
  }

  /** Anything of another type than `schema` asks for. */
  private wrongType(): unknown {
    return this.pick([null, true, 0, -1, 1.5, 'text', [], {}, [1, 'a'], { a: 1 }]);
  }

  value(raw: Schema, depth = 0): unknown {
    const schema = this.resolve(raw);
    if (depth > 6) return null;
    if (this.chance(0.04)) return this.wrongType();
    const choices = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(choices) && choices.length > 0) return this.value(this.pick(choices), depth + 1);
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.value(schema.allOf[0], depth + 1);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return this.chance(0.9) ? this.pick(schema.enum) : this.text();
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type;
    switch (type) {
      case 'string':
        return this.text(schema);
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? -5;
        const max = schema.maximum ?? Math.max(min + 1000, 1000);
        if (this.chance(0.1)) return this.pick([min - 1, max + 1, 2 ** 53, -(2 ** 31)]);
        const n = min + this.random() * Math.min(max - min, 10_000);
        return type === 'integer' ? Math.floor(n) : n;
      }
      case 'boolean':
        return this.chance(0.5);
      case 'null':
        return null;
      case 'array': {
        const count = Math.floor(this.random() * 4);
        return Array.from({ length: count }, () => this.value(schema.items ?? {}, depth + 1));
      }
      case 'object':
      case undefined: {
        if (type === undefined && !schema.properties) return this.chance(0.5) ? this.text() : { key: this.text() };
        const out: Record<string, unknown> = {};
        const required = new Set<string>(schema.required ?? []);
        for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
          if (required.has(name) ? this.chance(0.97) : this.chance(0.6)) out[name] = this.value(property, depth + 1);
        }
        if (this.chance(0.08)) out[this.text({ maxLength: 8 })] = this.text();
        return out;
      }
      default:
        return this.text();
    }
  }

  /** `value` with one string (or a property name, or a new member) made malformed text. */
  malformed(raw: Schema): unknown {
    const base = this.value(raw);
    const bad = this.pick(MALFORMED_TEXT);
    const strings: Array<{ parent: any; key: string | number }> = [];
    const containers: any[] = [];
    const walk = (node: any) => {
      if (Array.isArray(node)) {
        containers.push(node);
        for (const [index, item] of node.entries()) {
          if (typeof item === 'string') strings.push({ parent: node, key: index });
          else walk(item);
        }
      } else if (node && typeof node === 'object') {
        containers.push(node);
        for (const [key, item] of Object.entries(node)) {
          if (typeof item === 'string') strings.push({ parent: node, key });
          else walk(item);
        }
      }
    };
    walk(base);
    if (typeof base === 'string') return `${base}${bad}`;
    if (strings.length > 0 && this.chance(0.8)) {
      const { parent, key } = this.pick(strings);
      const at = Math.floor(this.random() * (parent[key].length + 1));
      parent[key] = `${parent[key].slice(0, at)}${bad}${parent[key].slice(at)}`;
      return base;
    }
    const object = containers.find((node) => !Array.isArray(node));
    if (object) {
      object[`name${bad}`] = 'value';
      return base;
    }
    return { text: bad };
  }
}

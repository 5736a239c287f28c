/**
 * SCIM filters (RFC 7644 section 3.4.2.2) and PATCH paths (section 3.5.2): a parser to a small syntax tree, and
 * an in-memory evaluator for the value filters of PATCH paths (`emails[type eq "work"]`). List queries compile
 * the same tree to SQL (query.ts), so a filter means one thing everywhere.
 *
 *   FILTER    = attrExp / logExp / valuePath / *1"not" "(" FILTER ")"
 *   valuePath = attrPath "[" valFilter "]"
 *   attrExp   = (attrPath SP "pr") / (attrPath SP compareOp SP compValue)
 *   logExp    = FILTER SP ("and" / "or") SP FILTER       ("and" binds tighter than "or")
 *   compValue = false / null / true / number / string   (JSON literals)
 *   attrPath  = [URI ":"] ATTRNAME *1subAttr
 *
 * Operators and attribute names are case-insensitive (RFC 7644 section 3.4.2.2, RFC 7643 section 2.1).
 */

export const COMPARE_OPS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type CompValue = string | number | boolean | null;

/** `urn:…:User:name.givenName` is `{ uri: 'urn:…:User', attr: 'name', sub: 'givenName' }`. */
export interface AttrPath {
  uri?: string;
  attr: string;
  sub?: string;
}

export type Filter =
  | { op: 'and' | 'or'; left: Filter; right: Filter }
  | { op: 'not'; filter: Filter }
  | { op: 'pr'; path: AttrPath }
  | { op: CompareOp; path: AttrPath; value: CompValue }
  | { op: 'valuePath'; path: AttrPath; filter: Filter };

/** A PATCH target: an attribute, optionally narrowed to the elements a value filter selects, then a sub-attribute. */
export interface PatchPath {
  path: AttrPath;
  filter?: Filter;
  /** Sub-attribute after the value filter (`emails[type eq "work"].value`). */
  sub?: string;
}

/** A filter or path that cannot be parsed; answered as 400 `invalidFilter` (or `invalidPath` for PATCH). */
export class FilterError extends Error {}

/** Bounds that keep a hostile filter cheap to parse and to run. */
export const MAX_FILTER_LENGTH = 2000;
export const MAX_FILTER_DEPTH = 12;

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'punct'; text: '(' | ')' | '[' | ']'; at: number };

const NAME = /^[A-Za-z$][A-Za-z0-9_$-]*$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ kind: 'punct', text: c, at: i });
      i++;
    } else if (c === '"') {
      // A JSON string: find its closing quote, skipping escaped characters, and let JSON decode it.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new FilterError(`Unterminated string at position ${i + 1}`);
      try {
        tokens.push({ kind: 'string', value: JSON.parse(text.slice(i, j + 1)) as string, at: i });
      } catch {
        throw new FilterError(`Malformed string at position ${i + 1}`);
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !' \t\n\r()[]"'.includes(text[j]!)) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j), at: i });
      i = j;
    }
  }
  return tokens;
}

/** Parses `[URI ":"] ATTRNAME [ "." subAttr ]`; the URI ends at the last colon (`…:2.0:User:name.givenName`). */
export function parseAttrPath(text: string): AttrPath {
  const colon = text.lastIndexOf(':');
  const uri = colon >= 0 ? text.slice(0, colon) : undefined;
  const rest = colon >= 0 ? text.slice(colon + 1) : text;
  const [attr, sub, extra] = rest.split('.');
  if (uri !== undefined && !/^urn:[A-Za-z0-9:._-]+$/i.test(uri)) throw new FilterError(`Malformed attribute "${text}"`);
  if (!attr || !NAME.test(attr) || extra !== undefined || (sub !== undefined && !NAME.test(sub))) {
    throw new FilterError(`Malformed attribute "${text}"`);
  }
  return { ...(uri ? { uri } : {}), attr, ...(sub !== undefined ? { sub } : {}) };
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isWord(token: Token | undefined, word: string): boolean {
    return token?.kind === 'word' && token.text.toLowerCase() === word;
  }

  private expect(text: '(' | ')' | '[' | ']'): void {
    const token = this.tokens[this.i];
    if (token?.kind !== 'punct' || token.text !== text) {
      throw new FilterError(`Expected "${text}"${token ? ` at position ${token.at + 1}` : ' at the end'}`);
    }
    this.i++;
  }

  /** The whole input as one filter; `inValue` for the value filter of a PATCH path. */
  parse(inValue = false): Filter {
    const filter = this.or(inValue ? 1 : 0, inValue);
    const rest = this.peek();
    if (rest) throw new FilterError(`Unexpected input at position ${rest.at + 1}`);
    return filter;
  }

  /** `inValue`: inside `attr[…]`, where another value filter may not open (RFC 7644: valFilter). */
  private or(depth: number, inValue: boolean): Filter {
    if (depth > MAX_FILTER_DEPTH) throw new FilterError(`Filter nested deeper than ${MAX_FILTER_DEPTH} levels`);
    let left = this.and(depth, inValue);
    while (this.isWord(this.peek(), 'or')) {
      this.i++;
      left = { op: 'or', left, right: this.and(depth, inValue) };
    }
    return left;
  }

  private and(depth: number, inValue: boolean): Filter {
    let left = this.unary(depth, inValue);
    while (this.isWord(this.peek(), 'and')) {
      this.i++;
      left = { op: 'and', left, right: this.unary(depth, inValue) };
    }
    return left;
  }

  private unary(depth: number, inValue: boolean): Filter {
    const token = this.peek();
    if (this.isWord(token, 'not')) {
      this.i++;
      this.expect('(');
      const filter = this.or(depth + 1, inValue);
      this.expect(')');
      return { op: 'not', filter };
    }
    if (token?.kind === 'punct' && token.text === '(') {
      this.i++;
      const filter = this.or(depth + 1, inValue);
      this.expect(')');
      return filter;
    }
    return this.attrExp(depth, inValue);
  }

  private attrExp(depth: number, inValue: boolean): Filter {
    const token = this.tokens[this.i++];
    if (token?.kind !== 'word') {
      throw new FilterError(`Expected an attribute${token ? ` at position ${token.at + 1}` : ' at the end'}`);
    }
    const path = parseAttrPath(token.text);
    const next = this.peek();
    if (next?.kind === 'punct' && next.text === '[') {
      if (inValue) throw new FilterError('A value filter cannot hold another value filter');
      if (path.sub !== undefined) throw new FilterError(`Malformed value filter on "${token.text}"`);
      this.i++;
      const filter = this.or(depth + 1, true);
      this.expect(']');
      return { op: 'valuePath', path, filter };
    }
    const operator = this.tokens[this.i++];
    if (operator?.kind !== 'word') {
      throw new FilterError(`Expected an operator after "${token.text}"`);
    }
    const op = operator.text.toLowerCase();
    if (op === 'pr') return { op: 'pr', path };
    if (!(COMPARE_OPS as readonly string[]).includes(op)) {
      throw new FilterError(`Unsupported operator "${operator.text}"`);
    }
    return { op: op as CompareOp, path, value: this.value(operator) };
  }

  private value(after: Token): CompValue {
    const token = this.tokens[this.i++];
    if (token?.kind === 'string') return token.value;
    if (token?.kind === 'word') {
      const word = token.text;
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
      if (NUMBER.test(word)) return Number(word);
    }
    throw new FilterError(`Expected a value (string, number, true, false or null) at position ${after.at + 1}`);
  }
}

/** Parses a `filter` query parameter; FilterError for anything outside the grammar or the bounds. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw new FilterError(`Filter longer than ${MAX_FILTER_LENGTH} characters`);
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new FilterError('Empty filter');
  return new Parser(tokens).parse();
}

/** Parses a PATCH `path`: `attrPath`, or `attrPath "[" valFilter "]" [ "." subAttr ]`. */
export function parsePatchPath(text: string): PatchPath {
  if (text.length > MAX_FILTER_LENGTH) throw new FilterError(`Path longer than ${MAX_FILTER_LENGTH} characters`);
  const open = text.indexOf('[');
  if (open < 0) return { path: parseAttrPath(text.trim()) };
  const tokens = tokenize(text.slice(open + 1));
  // The value filter ends at the first "]" outside a string; what follows may only be ".subAttr".
  const close = tokens.findIndex((t) => t.kind === 'punct' && t.text === ']');
  if (close < 0) throw new FilterError('Missing "]" in path');
  const path = parseAttrPath(text.slice(0, open).trim());
  if (path.sub !== undefined) throw new FilterError(`Malformed path "${text}"`);
  const inner = tokens.slice(0, close);
  if (inner.length === 0) throw new FilterError('Empty value filter in path');
  const filter = new Parser(inner).parse(true);
  const after = text.slice(open + 1 + tokens[close]!.at + 1).trim();
  if (after !== '' && !/^\.[A-Za-z$][A-Za-z0-9_$-]*$/.test(after)) throw new FilterError(`Malformed path "${text}"`);
  return { path, filter, ...(after ? { sub: after.slice(1) } : {}) };
}

/** The value of `name` in `object`, with attribute names compared case-insensitively (RFC 7643 section 2.1). */
export function attributeOf(object: Record<string, unknown>, name: string): unknown {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

function compare(op: CompareOp, actual: unknown, expected: CompValue): boolean {
  if (expected === null) {
    if (op === 'eq') return actual === undefined || actual === null;
    if (op === 'ne') return actual !== undefined && actual !== null;
    return false;
  }
  if (actual === undefined || actual === null) return op === 'ne';
  const a = text(actual);
  const b = text(expected);
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return typeof a === 'string' && typeof b === 'string' && a.includes(b);
    case 'sw':
      return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
    case 'ew':
      return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
    case 'gt':
      return typeof a === typeof b && (a as string) > (b as string);
    case 'ge':
      return typeof a === typeof b && (a as string) >= (b as string);
    case 'lt':
      return typeof a === typeof b && (a as string) < (b as string);
    case 'le':
      return typeof a === typeof b && (a as string) <= (b as string);
  }
}

/**
 * Whether one element of a multi-valued attribute (`{type, value, primary}`) passes a value filter. Attributes are
 * the element's own (a value filter names sub-attributes); strings compare without regard to case, the rule for
 * every sub-attribute we keep (emails, member references).
 */
export function matchesElement(filter: Filter, element: Record<string, unknown>): boolean {
  switch (filter.op) {
    case 'and':
      return matchesElement(filter.left, element) && matchesElement(filter.right, element);
    case 'or':
      return matchesElement(filter.left, element) || matchesElement(filter.right, element);
    case 'not':
      return !matchesElement(filter.filter, element);
    case 'valuePath':
      throw new FilterError('A value filter cannot hold another value filter');
    case 'pr': {
      const value = attributeOf(element, filter.path.sub ?? filter.path.attr);
      return value !== undefined && value !== null && value !== '';
    }
    default:
      return compare(filter.op, attributeOf(element, filter.path.sub ?? filter.path.attr), filter.value);
  }
}

/**
 * The sub-attribute values a value filter pins with `eq` joined by `and` (`type eq "work"`): PATCH uses them to
 * create the element when none matches. Undefined when the filter says anything else.
 */
export function equalities(filter: Filter): Record<string, CompValue> | undefined {
  if (filter.op === 'eq' && filter.path.sub === undefined) return { [filter.path.attr]: filter.value };
  if (filter.op !== 'and') return undefined;
  const left = equalities(filter.left);
  const right = equalities(filter.right);
  return left && right ? { ...left, ...right } : undefined;
}

import {
  attributeOf,
  equalities,
  type Filter,
  FilterError,
  matchesElement,
  type PatchPath,
  parsePatchPath,
} from './filter.js';
import { type AttributeDef, findAttribute, MAX_PATCH_OPERATIONS, type ResourceDef } from './resource-schemas.js';

/**
 * SCIM PATCH (RFC 7644 section 3.5.2) over a resource document, as Okta and Microsoft Entra send it:
 * - `op` in any case (`Replace`, `Add`);
 * - no `path` with an object `value` whose keys are attributes or paths (`{"active": false}`,
 *   `{"name.givenName": "Ann"}`), `id` and `meta` among them ignored when unchanged;
 * - booleans as strings (`"False"`);
 * - `emails[type eq "work"].value`: an element matching the value filter is changed, or created from the filter's
 *   `eq` terms when none matches (what Entra expects on add and on replace);
 * - `remove` on a multi-valued attribute with a `value` list removes those elements only (Entra's member removal).
 * Every operation applies to a copy; the first failure fails the whole request and nothing changes.
 */

export type PatchOpName = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  op: PatchOpName;
  path?: PatchPath | undefined;
  /** The path as sent, for error messages. */
  pathText?: string | undefined;
  value?: unknown;
}

export type PatchErrorType = 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'mutability';

/** A PATCH that cannot apply; answered as 400 with `scimType` (RFC 7644 section 3.12). */
export class PatchError extends Error {
  constructor(
    message: string,
    readonly scimType: PatchErrorType,
  ) {
    super(message);
  }
}

export type Doc = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parsePath(text: string): PatchPath {
  try {
    return parsePatchPath(text);
  } catch (error) {
    if (error instanceof FilterError) throw new PatchError(`Invalid path "${text}": ${error.message}`, 'invalidPath');
    throw error;
  }
}

/** The `Operations` of a PatchOp message (RFC 7644 section 3.5.2), checked and with their paths parsed. */
export function parsePatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw new PatchError('A PatchOp message must be a JSON object', 'invalidSyntax');
  const operations = attributeOf(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new PatchError('Operations: must be a non-empty array', 'invalidSyntax');
  }
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw new PatchError(`Operations: at most ${MAX_PATCH_OPERATIONS} in one request`, 'invalidSyntax');
  }
  return operations.map((operation, index) => {
    if (!isObject(operation)) throw new PatchError(`Operations[${index}]: must be an object`, 'invalidSyntax');
    const op = attributeOf(operation, 'op');
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'remove' && name !== 'replace') {
      throw new PatchError(`Operations[${index}].op: must be add, remove or replace`, 'invalidSyntax');
    }
    const path = attributeOf(operation, 'path');
    if (path !== undefined && path !== null && typeof path !== 'string') {
      throw new PatchError(`Operations[${index}].path: must be a string`, 'invalidPath');
    }
    const value = attributeOf(operation, 'value');
    if (!path && name === 'remove') {
      throw new PatchError(`Operations[${index}]: remove needs a path`, 'noTarget');
    }
    if (name !== 'remove' && value === undefined) {
      throw new PatchError(`Operations[${index}]: ${name} needs a value`, 'invalidSyntax');
    }
    return {
      op: name,
      ...(path ? { path: parsePath(path), pathText: path } : {}),
      value,
    };
  });
}

/** A value of an attribute's type: booleans also from `"true"`/`"false"` in any case; null unassigns. */
export function coerce(def: AttributeDef, value: unknown): unknown {
  if (value === null) return null;
  switch (def.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw new PatchError(`${def.name}: must be a boolean`, 'invalidValue');
    case 'string':
    case 'reference':
    case 'dateTime':
      if (typeof value === 'string') return value;
      throw new PatchError(`${def.name}: must be a string`, 'invalidValue');
    case 'complex': {
      if (!isObject(value)) throw new PatchError(`${def.name}: must be an object`, 'invalidValue');
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(value)) {
        const subDef = findAttribute(def.subAttributes, key);
        if (!subDef || subDef.mutability === 'readOnly') continue;
        const coerced = coerce(subDef, sub);
        if (coerced !== null) out[subDef.name] = coerced;
      }
      return out;
    }
  }
}

/** Elements of a multi-valued complex attribute from a value (one object or an array of them). */
function elementsOf(def: AttributeDef, value: unknown): Record<string, unknown>[] {
  if (value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((element) => coerce(def, element) as Record<string, unknown>);
}

const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

/** RFC 7644 section 3.5.2: a value set primary makes every other value of the attribute non-primary. */
function keepOnePrimary(list: Record<string, unknown>[], chosen: Record<string, unknown>[]): void {
  const primary = chosen.filter((element) => element.primary === true).at(-1);
  if (!primary) return;
  for (const element of list) if (element !== primary && element.primary === true) delete element.primary;
}

/** A resource applies some multi-valued attributes itself (group members live in their own table). */
export type Intercept = (def: AttributeDef, operation: PatchOperation & { path: PatchPath }) => boolean;

export interface PatchContext {
  resource: ResourceDef;
  /** The resource's id: an `id` in a path-less value is ignored when it matches (Okta sends it). */
  id: string;
  intercept?: Intercept | undefined;
}

/** Applies the operations to a copy of `doc` (canonical attribute names) and answers the copy. */
export function applyPatch(doc: Doc, operations: PatchOperation[], context: PatchContext): Doc {
  const next = structuredClone(doc);
  for (const operation of operations) {
    if (operation.path) {
      applyOne(next, { ...operation, path: operation.path }, context);
      continue;
    }
    if (!isObject(operation.value)) {
      throw new PatchError(`${operation.op} without a path needs an object value`, 'invalidValue');
    }
    for (const [key, value] of Object.entries(operation.value)) {
      const lower = key.toLowerCase();
      if (lower === 'schemas' || lower === 'meta') continue;
      if (lower === 'id') {
        if (value !== context.id) throw new PatchError('id: is read-only', 'mutability');
        continue;
      }
      applyOne(next, { op: operation.op, path: parsePath(key), pathText: key, value }, context);
    }
  }
  return next;
}

function applyOne(doc: Doc, operation: PatchOperation & { path: PatchPath }, context: PatchContext): void {
  const { path } = operation;
  // Attributes of another schema (the enterprise extension) or unknown ones are not kept: nothing to change.
  if (path.path.uri && path.path.uri.toLowerCase() !== context.resource.schema.toLowerCase()) return;
  const def = findAttribute(context.resource.attributes, path.path.attr);
  if (!def) return;
  if (def.mutability === 'readOnly') throw new PatchError(`${def.name}: is read-only`, 'mutability');
  if (context.intercept?.(def, operation)) return;
  if (def.multiValued) {
    applyMultiValued(doc, def, operation);
    return;
  }
  if (path.filter) throw new PatchError(`${def.name}: is single-valued; a value filter cannot apply`, 'invalidPath');
  const sub = path.path.sub;
  if (def.type !== 'complex') {
    if (sub !== undefined) throw new PatchError(`${def.name}: has no sub-attributes`, 'invalidPath');
    const value = operation.op === 'remove' ? null : coerce(def, operation.value);
    if (value === null) delete doc[def.name];
    else doc[def.name] = value;
    return;
  }
  const current = isObject(doc[def.name]) ? (doc[def.name] as Record<string, unknown>) : {};
  if (sub !== undefined) {
    const subDef = findAttribute(def.subAttributes, sub);
    if (!subDef) return;
    if (subDef.mutability === 'readOnly')
      throw new PatchError(`${def.name}.${subDef.name}: is read-only`, 'mutability');
    const value = operation.op === 'remove' ? null : coerce(subDef, operation.value);
    if (value === null) delete current[subDef.name];
    else current[subDef.name] = value;
  } else if (operation.op === 'remove' || operation.value === null) {
    delete doc[def.name];
    return;
  } else {
    // add and replace of a complex attribute both set the sub-attributes given and keep the others (3.5.2.3).
    Object.assign(current, coerce(def, operation.value));
  }
  if (Object.keys(current).length === 0) delete doc[def.name];
  else doc[def.name] = current;
}

function applyMultiValued(doc: Doc, def: AttributeDef, operation: PatchOperation & { path: PatchPath }): void {
  const list = Array.isArray(doc[def.name]) ? (doc[def.name] as Record<string, unknown>[]) : [];
  const subName = operation.path.sub ?? operation.path.path.sub;
  const subDef = subName === undefined ? undefined : findAttribute(def.subAttributes, subName);
  if (subName !== undefined && !subDef) return;
  if (subDef?.mutability === 'readOnly') throw new PatchError(`${def.name}.${subDef.name}: is read-only`, 'mutability');
  const result = nextElements(list, def, operation, subDef);
  if (result.length === 0) delete doc[def.name];
  else doc[def.name] = result;
}

/** The elements of a multi-valued attribute after one operation (`list` may be changed in place). */
function nextElements(
  list: Record<string, unknown>[],
  def: AttributeDef,
  operation: PatchOperation & { path: PatchPath },
  subDef: AttributeDef | undefined,
): Record<string, unknown>[] {
  const { filter } = operation.path;
  if (!filter && !subDef) {
    if (operation.op === 'replace') {
      const replacement = elementsOf(def, operation.value);
      keepOnePrimary(replacement, replacement);
      return replacement;
    }
    if (operation.op === 'remove') {
      // Entra: `{"op":"Remove","path":"members","value":[{"value":"…"}]}` removes the listed values only.
      if (operation.value === undefined || operation.value === null) return [];
      const gone = elementsOf(def, operation.value).map((element) => element.value);
      return list.filter((element) => !gone.some((value) => sameText(value, element.value)));
    }
    const added = elementsOf(def, operation.value).filter(
      (element) =>
        !list.some((existing) => sameText(existing.value, element.value) && sameText(existing.type, element.type)),
    );
    const result = [...list, ...added];
    keepOnePrimary(result, added);
    return result;
  }

  const matches = (element: Record<string, unknown>) => (filter ? matchesElement(filter, element) : true);
  if (operation.op === 'remove') {
    if (!subDef) return list.filter((element) => !matches(element));
    for (const element of list) if (matches(element)) delete element[subDef.name];
    return list.filter((element) => Object.keys(element).length > 0);
  }
  const value = subDef ? coerce(subDef, operation.value) : coerce(def, operation.value);
  const matched = list.filter(matches);
  if (matched.length === 0) {
    list.push(created(def, filter, subDef, value, operation.pathText));
    keepOnePrimary(list, [list.at(-1)!]);
    return list;
  }
  for (const element of matched) {
    if (subDef) {
      if (value === null) delete element[subDef.name];
      else element[subDef.name] = value;
    } else if (value !== null) {
      Object.assign(element, value);
    }
  }
  keepOnePrimary(list, matched);
  return list;
}

/** The element an add or replace through an unmatched value filter creates: the filter's `eq` terms plus the value. */
function created(
  def: AttributeDef,
  filter: Filter | undefined,
  subDef: AttributeDef | undefined,
  value: unknown,
  pathText: string | undefined,
): Record<string, unknown> {
  const pinned = filter ? equalities(filter) : {};
  if (!pinned || value === null) {
    throw new PatchError(`No value matches the path "${pathText ?? def.name}"`, 'noTarget');
  }
  const element: Record<string, unknown> = {};
  for (const [name, pinnedValue] of Object.entries(pinned)) {
    const pinnedDef = findAttribute(def.subAttributes, name);
    if (!pinnedDef) throw new PatchError(`No value matches the path "${pathText ?? def.name}"`, 'noTarget');
    element[pinnedDef.name] = coerce(pinnedDef, pinnedValue);
  }
  if (subDef) element[subDef.name] = value;
  else Object.assign(element, value);
  return element;
}

/**
 * Changes to a group's members gathered from PATCH operations in order, without reading the members: the group
 * may be large and identity providers send one member at a time. `cleared` removes every member first.
 */
export class MemberPlan {
  cleared = false;
  readonly added = new Set<string>();
  readonly removed = new Set<string>();

  add(ids: string[]): void {
    for (const id of ids) {
      this.removed.delete(id);
      this.added.add(id);
    }
  }

  remove(ids: string[]): void {
    for (const id of ids) {
      this.added.delete(id);
      this.removed.add(id);
    }
  }

  replace(ids: string[]): void {
    this.cleared = true;
    this.added.clear();
    this.removed.clear();
    this.add(ids);
  }

  get changed(): boolean {
    return this.cleared || this.added.size > 0 || this.removed.size > 0;
  }
}

/** Member ids of a `members` value (one `{value}` object or a list of them). */
export function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((element) => {
    const id = isObject(element) ? attributeOf(element, 'value') : undefined;
    if (typeof id !== 'string') throw new PatchError('members: each member needs a string value', 'invalidValue');
    return id;
  });
}

/** Ids a members value filter names: `value eq "…"`, several joined by `or`. */
function filteredIds(filter: Filter): string[] | undefined {
  if (filter.op === 'or') {
    const left = filteredIds(filter.left);
    const right = filteredIds(filter.right);
    return left && right ? [...left, ...right] : undefined;
  }
  if (filter.op === 'eq' && filter.path.attr.toLowerCase() === 'value' && typeof filter.value === 'string') {
    return [filter.value];
  }
  return undefined;
}

/** The intercept that turns every operation on `members` into `plan` changes (both Okta and Entra styles). */
export function membersIntercept(plan: MemberPlan): Intercept {
  return (def, operation) => {
    if (def.name !== 'members') return false;
    const { path, op } = operation;
    if (path.sub !== undefined || path.path.sub !== undefined) {
      throw new PatchError('members: sub-attributes cannot be changed; add or remove members', 'mutability');
    }
    if (path.filter) {
      const ids = filteredIds(path.filter);
      if (op !== 'remove' || !ids) {
        throw new PatchError('members: a value filter may only remove members by `value eq "<id>"`', 'invalidPath');
      }
      plan.remove(ids);
    } else if (op === 'add') {
      plan.add(memberIds(operation.value));
    } else if (op === 'replace') {
      plan.replace(memberIds(operation.value));
    } else if (operation.value === undefined || operation.value === null) {
      plan.replace([]);
    } else {
      plan.remove(memberIds(operation.value));
    }
    return true;
  };
}

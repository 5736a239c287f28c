import { type ReactNode, useId } from 'react';
import { type Answer, useApi } from '../api';
import type { Session } from '../session';
import './org-kit.css';

/**
 * Pieces shared by the organization administration screens (members, invitations, domains, custom roles,
 * settings, privacy): the role catalogue and which roles the signed-in person may hand out, a group of
 * checkboxes, and date formatting.
 */

/** GET /api/v1/authz/catalog (with a credential it also lists the organization's custom roles). */
export type Catalog = Answer<'/authz/catalog'>;

export function useCatalog() {
  return useApi<Catalog>('/authz/catalog');
}

/** Permissions over one's own record: every member's baseline, never refused when granted (docs/organizations.md). */
export const isSelfPermission = (code: string) => code.startsWith('identity:self:');

/**
 * Whether the API would let `session` give `role` to someone (invitation or role change): the role is grantable
 * and the caller holds each of its permissions, or (with `tenant:manage`) the code is one the organization's own
 * OAuth resources declare, i.e. not in the installation's catalogue (docs/custom-roles.md, `mayGrant`). The owner
 * passes every check. The API decides again; this only keeps the console from offering what it would refuse.
 */
export function mayGrantRole(session: Session, catalog: Catalog, role: Catalog['roles'][number]): boolean {
  if (!role.grantable) return false;
  if (session.me.is_owner) return true;
  const known = new Set(catalog.permissions.map((p) => p.code));
  return role.permissions.every(
    (code) => isSelfPermission(code) || session.can(code) || (!known.has(code) && session.can('tenant:manage')),
  );
}

/** The role choices the caller may hand out, system roles first then the organization's custom roles. */
export function grantableRoleOptions(
  session: Session,
  catalog: Catalog | undefined,
): { value: string; label: string }[] {
  if (!catalog) return [{ value: 'member', label: 'Member' }];
  return catalog.roles
    .filter((role) => mayGrantRole(session, catalog, role))
    .map((role) => ({ value: role.code, label: role.custom ? `${role.name} (custom: ${role.code})` : role.name }));
}

/** A display name of a role code: the catalogue's name when it knows the code. */
export function roleName(catalog: Catalog | undefined, code: string): string {
  return catalog?.roles.find((role) => role.code === code)?.name ?? code;
}

export { when } from './dates';

/**
 * A labelled group of checkboxes (a fieldset whose legend names it); each box submits `name=<value>` with its
 * form. `error` (a detail from the API) shows under the group.
 */
export function CheckboxGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: ReactNode; hint?: string }[];
  checked?: readonly string[];
  hint?: ReactNode;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset className={props.error ? 'org-checks field-invalid' : 'org-checks'} aria-describedby={`${id}-hint`}>
      <legend>{props.legend}</legend>
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
      <ul>
        {props.options.map((option) => (
          <li key={option.value}>
            <label>
              <input
                type="checkbox"
                name={props.name}
                value={option.value}
                defaultChecked={props.checked?.includes(option.value)}
              />
              <span>
                {option.label}
                {option.hint && <span className="hint org-check-hint">{option.hint}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {props.error && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** One checkbox with its label (a boolean setting, a policy switch). */
export function Checkbox(props: {
  name: string;
  label: ReactNode;
  defaultChecked?: boolean;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="org-check">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        value="true"
        defaultChecked={props.defaultChecked}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

/** A toolbar of filters above a table (labelled selects and inputs on one wrapping row). */
export function Filters(props: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a search landmark around the filters of a table
    <div className="org-filters" role="search" aria-label={props.label}>
      {props.children}
    </div>
  );
}

/** A pager for cursor-paged lists (the cursor lives in the URL): back to the first page, or on to the next. */
export function CursorPager(props: {
  label: string;
  cursor: string;
  nextCursor: string | null | undefined;
  onCursor: (cursor: string | undefined) => void;
}) {
  if (!props.cursor && !props.nextCursor) return null;
  return (
    <nav className="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={!props.cursor} onClick={() => props.onCursor(undefined)}>
        First page
      </button>
      <button type="button" disabled={!props.nextCursor} onClick={() => props.onCursor(props.nextCursor ?? undefined)}>
        Next
      </button>
    </nav>
  );
}

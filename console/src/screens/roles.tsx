import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Field, Form, type FormValues, Notice, Page, Section } from '../ui';
import { type Catalog, CheckboxGroup, isSelfPermission, useCatalog, when } from '../ui/org-kit';
import type { ScreenDef } from './types';

/** GET /api/v1/authz/roles (docs/custom-roles.md): one of the organization's custom roles. */
type CustomRole = Answer<'/authz/roles'>[number];
/** The role as POST /api/v1/authz/roles created it, or as PATCH /api/v1/authz/roles/{code} saved it. */
type CreatedRole = Answer<'/authz/roles', 'post', 201>;
type UpdatedRole = Answer<'/authz/roles/{code}', 'patch'>;

/** The checked boxes plus any codes typed in "Other codes" (codes the organization's OAuth resources declare). */
function permissionsOf(values: FormValues): string[] {
  const checked = (values.permissions ?? '').split('\n');
  const typed = (values.other_permissions ?? '').split(/[\s,]+/);
  return [...new Set([...checked, ...typed].map((code) => code.trim()).filter(Boolean))];
}

/**
 * The boxes offered: what the caller holds (the API refuses anything else), plus, when editing, what the role
 * already grants (kept without being held; once unchecked it cannot be put back by this person).
 */
function permissionOptions(catalog: Catalog | undefined, held: (code: string) => boolean, current: string[] = []) {
  const described = new Map(catalog?.permissions.map((p) => [p.code, p]) ?? []);
  const codes = [...new Set([...(catalog?.permissions.map((p) => p.code) ?? []), ...current])]
    .filter((code) => !isSelfPermission(code) && (held(code) || current.includes(code)))
    .sort();
  return codes.map((code) => ({
    value: code,
    label: <code>{code}</code>,
    hint: [described.get(code)?.description, held(code) ? undefined : 'kept from the role; you do not hold it']
      .filter(Boolean)
      .join('; '),
  }));
}

function RoleForm(props: {
  role?: CustomRole;
  catalog: Catalog | undefined;
  onSaved: (role: CreatedRole | UpdatedRole) => void;
  onCancel?: () => void;
}) {
  const session = useSession();
  const held = (code: string) => session.me.is_owner || session.can(code);
  const options = permissionOptions(props.catalog, held, props.role?.permissions);
  const known = new Set(options.map((o) => o.value));
  const other = props.role?.permissions.filter((code) => !known.has(code) && !isSelfPermission(code)) ?? [];
  const editing = props.role !== undefined;
  return (
    <Form
      label={editing ? `Edit role ${props.role?.code}` : 'Create a custom role'}
      submitLabel={editing ? 'Save role' : 'Create role'}
      secondary={
        props.onCancel && (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        )
      }
      onSubmit={async (values: FormValues<'name' | 'description'>) => {
        const permissions = permissionsOf(values);
        const saved = editing
          ? await api<UpdatedRole>('PATCH', `/authz/roles/${encodeURIComponent(props.role?.code ?? '')}`, {
              name: values.name,
              description: values.description ? values.description : null,
              permissions,
            } satisfies Body<'/authz/roles/{code}', 'patch'>)
          : await api<CreatedRole>('POST', '/authz/roles', {
              code: values.code ?? '',
              name: values.name,
              ...(values.description ? { description: values.description } : {}),
              permissions,
            } satisfies Body<'/authz/roles', 'post'>);
        props.onSaved(saved);
      }}
    >
      {!editing && (
        <Field
          name="code"
          label="Code"
          required
          autoComplete="off"
          hint="Lowercase: a letter, then letters, digits, - or _ (2 to 64 characters). It cannot be changed later."
        />
      )}
      <Field name="name" label="Name" required defaultValue={props.role?.name} autoComplete="off" />
      <Field name="description" label="Description" multiline defaultValue={props.role?.description ?? ''} />
      <CheckboxGroup
        name="permissions"
        legend="Permissions"
        hint="Only permissions you hold yourself can be put in a role. Every holder also keeps the right to act on their own account."
        options={options}
        checked={props.role?.permissions}
      />
      <Field
        name="other_permissions"
        label="Other codes"
        defaultValue={other.join(' ')}
        autoComplete="off"
        hint="Codes your organization's OAuth resources declare (namespace:action), separated by spaces."
      />
    </Form>
  );
}

function Roles() {
  const catalog = useCatalog();
  const roles = useApi<CustomRole[]>('/authz/roles');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const editedRole = roles.data?.find((role) => role.code === editing);

  return (
    <Page
      title="Custom roles"
      description="Roles of your own next to the system roles. A change reaches the role's holders on their next request."
      actions={
        <button
          type="button"
          className="button primary"
          disabled={creating}
          onClick={() => {
            setCreating(true);
            setEditing(undefined);
          }}
        >
          Create a role
        </button>
      }
    >
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={catalog.error} title="The permission catalogue could not be read:" />
      {creating && (
        <Section title="Create a custom role">
          <RoleForm
            catalog={catalog.data}
            onCancel={() => setCreating(false)}
            onSaved={(role) => {
              setCreating(false);
              setNotice(`Role ${role.code} created. Give it to members on the Members screen or in an invitation.`);
              roles.reload();
            }}
          />
        </Section>
      )}
      {editedRole && (
        <Section title={`Edit ${editedRole.code}`}>
          <RoleForm
            key={editedRole.code}
            role={editedRole}
            catalog={catalog.data}
            onCancel={() => setEditing(undefined)}
            onSaved={(role) => {
              setEditing(undefined);
              setNotice(`Role ${role.code} saved.`);
              roles.reload();
            }}
          />
        </Section>
      )}
      <Section title="Roles">
        <DataTable<CustomRole>
          caption="Custom roles"
          rows={roles.data}
          loading={roles.loading}
          error={roles.error}
          rowKey={(row) => row.code}
          empty="No custom roles yet: members hold system roles only."
          columns={[
            {
              key: 'role',
              header: 'Role',
              render: (row) => (
                <>
                  {row.name} <code className="muted">{row.code}</code>
                  {row.read_only && <span className="badge">Read-only</span>}
                  {row.description && <div className="muted">{row.description}</div>}
                </>
              ),
            },
            {
              key: 'permissions',
              header: 'Permissions',
              render: (row) =>
                row.permissions.length === 0 ? (
                  <span className="muted">None beyond their own account</span>
                ) : (
                  <ul className="tags" aria-label={`Permissions of ${row.code}`}>
                    {row.permissions.map((code) => (
                      <li key={code} className="tag">
                        {code}
                      </li>
                    ))}
                  </ul>
                ),
            },
            { key: 'updated', header: 'Changed', render: (row) => when(row.updated_at) },
            {
              key: 'actions',
              header: 'Actions',
              render: (row) => (
                <div className="org-inline">
                  <button
                    type="button"
                    className="button"
                    aria-label={`Edit ${row.code}`}
                    onClick={() => {
                      setEditing(row.code);
                      setCreating(false);
                    }}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete ${row.code}`}
                    question={`Delete the role ${row.code}? The API refuses while a member or a pending invitation holds it.`}
                    onConfirm={async () => {
                      await api('DELETE', `/authz/roles/${encodeURIComponent(row.code)}`);
                      if (editing === row.code) setEditing(undefined);
                      setNotice(`Role ${row.code} deleted.`);
                      roles.reload();
                    }}
                  />
                </div>
              ),
            },
          ]}
        />
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/roles',
    title: 'Custom roles',
    group: 'Organization',
    visible: (s) => s.can('tenant:manage'),
    component: Roles,
  },
];

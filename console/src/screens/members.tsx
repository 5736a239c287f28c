import { useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { type Session, useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Notice, Page, Section } from '../ui';
import { type Catalog, Filters, grantableRoleOptions, roleName, useCatalog, when } from '../ui/org-kit';
import { screens as invitationScreens } from './members-invitations';
import type { ScreenDef } from './types';

/** GET /api/v1/members (docs/organizations.md): one membership of the roster. */
export type Member = Answer<'/members'>[number];
/** PATCH /api/v1/members/{membership_id}: the membership with its new role. */
type ChangedMember = Answer<'/members/{membership_id}', 'patch'>;

const PAGE = 25;

/**
 * Why the API would refuse to change this membership's role (409: owner, SCIM-managed, customer), or undefined
 * when the console may offer it.
 */
function roleLocked(member: Member): string | undefined {
  if (member.role === 'owner') return 'Owner: ownership moves only by transfer';
  if (member.scim_managed) return 'Managed by your directory (SCIM)';
  if (member.population === 'customer') return 'Customer account';
  return undefined;
}

/** Whether the API would refuse the removal outright (409): SCIM-managed, or an owner removed by a non-owner. */
function removalLocked(session: Session, member: Member): boolean {
  return member.scim_managed || (member.role === 'owner' && !session.me.is_owner);
}

function RoleChanger(props: {
  member: Member;
  catalog: Catalog | undefined;
  onChanged: (member: ChangedMember) => void;
  onError: (error: ApiError) => void;
}) {
  const session = useSession();
  const options = grantableRoleOptions(session, props.catalog);
  const [role, setRole] = useState(props.member.role);
  const [busy, setBusy] = useState(false);
  const who = props.member.name ?? props.member.email;
  // A member whose current role the caller may not hand out keeps it listed, so the select shows the truth.
  const shown = options.some((o) => o.value === props.member.role)
    ? options
    : [{ value: props.member.role, label: roleName(props.catalog, props.member.role) }, ...options];
  return (
    <form
      className="org-inline"
      aria-label={`Role of ${who}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          props.onChanged(
            await api<ChangedMember>('PATCH', `/members/${encodeURIComponent(props.member.membership_id)}`, {
              role,
            } satisfies Body<'/members/{membership_id}', 'patch'>),
          );
        } catch (reason) {
          props.onError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
        } finally {
          setBusy(false);
        }
      }}
    >
      <select aria-label={`Role of ${who}`} value={role} onChange={(event) => setRole(event.target.value)}>
        {shown.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button" disabled={busy || role === props.member.role}>
        Change role
      </button>
    </form>
  );
}

function Members() {
  const session = useSession();
  const manage = session.can('members:manage');
  const catalog = useCatalog();
  const [population, setPopulation] = useQueryState('population');
  const [search, setSearch] = useQueryState('q');
  const [pageText] = useQueryState('page');
  const page = Math.max(1, Number.parseInt(pageText, 10) || 1);
  // One row more than a page tells whether a next page exists.
  const roster = useApi<Member[]>('/members', {
    population: population || undefined,
    limit: PAGE + 1,
    offset: (page - 1) * PAGE,
  });
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  const needle = search.trim().toLowerCase();
  const rows = roster.data
    ?.slice(0, PAGE)
    .filter((m) => !needle || m.email.toLowerCase().includes(needle) || m.name?.toLowerCase().includes(needle));

  return (
    <Page
      title="Members"
      description="People of the organization and their roles. Removing a member ends their sessions at once."
    >
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      <Section title="Roster">
        <Filters label="Filter members">
          <div className="field">
            <label htmlFor="members-population">Population</label>
            <select
              id="members-population"
              value={population || 'workforce'}
              onChange={(event) => setPopulation(event.target.value === 'workforce' ? undefined : event.target.value)}
            >
              <option value="workforce">Workforce</option>
              <option value="customer">Customers</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="members-search">Name or email contains</label>
            <input
              id="members-search"
              type="search"
              defaultValue={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </Filters>
        <DataTable<Member>
          caption="Members"
          rows={rows}
          loading={roster.loading}
          error={roster.error}
          rowKey={(row) => row.membership_id}
          empty={needle ? 'No member on this page matches.' : 'No members yet.'}
          server={{ hasMore: (roster.data?.length ?? 0) > PAGE }}
          columns={[
            {
              key: 'who',
              header: 'Member',
              render: (row) => (
                <div className="org-wrap">
                  {row.name ?? row.email}
                  {row.name && <div className="muted">{row.email}</div>}
                  {row.user_id === session.me.user_id && <span className="badge">You</span>}
                </div>
              ),
            },
            { key: 'role', header: 'Role', render: (row) => roleName(catalog.data, row.role) },
            {
              key: 'status',
              header: 'Status',
              render: (row) => (
                <>
                  {row.status}
                  {row.scim_managed && <span className="badge">SCIM</span>}
                </>
              ),
            },
            { key: 'joined', header: 'Joined', render: (row) => when(row.joined_at) },
            ...(manage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: Member) => {
                      const locked = roleLocked(row);
                      return (
                        <div className="org-inline">
                          {locked ? (
                            <span className="muted">{locked}</span>
                          ) : (
                            <RoleChanger
                              member={row}
                              catalog={catalog.data}
                              onChanged={(changed) => {
                                setError(undefined);
                                setNotice(
                                  `${changed.email} is now ${roleName(catalog.data, changed.role)}; it applies from their next request.`,
                                );
                                roster.reload();
                              }}
                              onError={(reason) => {
                                setNotice(undefined);
                                setError(reason);
                              }}
                            />
                          )}
                          {!removalLocked(session, row) && (
                            <ConfirmButton
                              label="Remove"
                              ariaLabel={`Remove ${row.email}`}
                              question={`Remove ${row.email} from the organization? Their sessions here end at once; they can be invited again later.`}
                              onConfirm={async () => {
                                await api('DELETE', `/members/${encodeURIComponent(row.membership_id)}`);
                                setError(undefined);
                                setNotice(`${row.email} was removed.`);
                                roster.reload();
                              }}
                            />
                          )}
                        </div>
                      );
                    },
                  },
                ]
              : []),
          ]}
        />
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/members',
    title: 'Members',
    group: 'Organization',
    visible: (s) => s.can('members:read'),
    component: Members,
  },
  ...invitationScreens,
];

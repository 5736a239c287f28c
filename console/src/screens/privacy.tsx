import { useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Notice, Page, Section } from '../ui';
import { downloadJson } from '../ui/org-download';
import { CursorPager, Filters, when } from '../ui/org-kit';
import { isOpen, type PrivacyRequest, type ProcessOutcome, REQUEST_TYPES, TYPE_LABELS } from './privacy-common';
import { RetentionSection } from './privacy-retention';
import { screens as selfScreens, statusColumn } from './privacy-self';
import type { ScreenDef } from './types';

const STATUSES = ['pending', 'verified', 'completed', 'rejected', 'cancelled'] as const;
const PAGE = 25;

/** POST /api/v1/gdpr/admin/requests/{id}/reject: the request as rejected. */
type RejectedRequest = Answer<'/gdpr/admin/requests/{id}/reject', 'post'>;

function RejectButton(props: { request: PrivacyRequest; onDone: (request: RejectedRequest) => void }) {
  const [reason, setReason] = useState('');
  const id = `reject-${props.request.id}`;
  return (
    <ConfirmButton
      label="Reject"
      ariaLabel={`Reject the ${props.request.request_type} request filed ${when(props.request.created_at)}`}
      confirmLabel="Reject request"
      question={
        <div className="field">
          <label htmlFor={id}>Reason given to the requester (required)</label>
          <textarea
            id={id}
            required
            maxLength={1000}
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      }
      onConfirm={async () => {
        props.onDone(
          await api<RejectedRequest>('POST', `/gdpr/admin/requests/${props.request.id}/reject`, {
            reason,
          } satisfies Body<'/gdpr/admin/requests/{id}/reject', 'post'>),
        );
        setReason('');
      }}
    />
  );
}

function Requests() {
  const session = useSession();
  const admin = session.can('compliance:admin');
  const [status, setStatus] = useQueryState('status');
  const [type, setType] = useQueryState('type');
  const [cursor, setCursor] = useQueryState('cursor');
  const list = useApi<Answer<'/gdpr/admin/requests'>>('/gdpr/admin/requests', {
    status: status || undefined,
    type: type || undefined,
    limit: PAGE,
    cursor: cursor || undefined,
  });
  // Requests name the subject by id; with members:read the roster gives their address.
  const roster = useApi<Answer<'/members'>>(session.can('members:read') ? '/members' : null, {
    limit: 500,
  });
  const emailOf = (userId: string) => roster.data?.find((m) => m.user_id === userId)?.email;
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [outcome, setOutcome] = useState<ProcessOutcome | undefined>(undefined);

  const done = (message: string) => {
    setError(undefined);
    setNotice(message);
    list.reload();
  };
  const now = Date.now();

  return (
    <Section title="Data-subject requests">
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      {outcome?.data !== null && outcome?.data !== undefined && (
        <div className="banner banner-success" role="status">
          The personal data for this {outcome.request.request_type} request is ready to send to the requester.{' '}
          <button
            type="button"
            className="button"
            onClick={() => downloadJson(`personal-data-${outcome.request.user_id}.json`, outcome.data)}
          >
            Download the export (JSON)
          </button>
        </div>
      )}
      {outcome?.erased_sections && <Notice>Erased: {outcome.erased_sections.join(', ') || 'nothing was held'}.</Notice>}
      <Filters label="Filter requests">
        <div className="field">
          <label htmlFor="privacy-status">Status</label>
          <select id="privacy-status" value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="privacy-type">Type</label>
          <select id="privacy-type" value={type} onChange={(event) => setType(event.target.value)}>
            <option value="">Any</option>
            {REQUEST_TYPES.map((value) => (
              <option key={value} value={value}>
                {TYPE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </Filters>
      <DataTable<PrivacyRequest>
        caption="Data-subject requests"
        rows={list.data?.requests}
        loading={list.loading}
        error={list.error}
        rowKey={(row) => row.id}
        empty={status || type ? 'No request matches these filters.' : 'No data-subject requests.'}
        server={{ hasMore: false }}
        columns={[
          { key: 'type', header: 'Type', render: (row) => row.request_type },
          {
            key: 'subject',
            header: 'Subject',
            render: (row) => (
              <span className="org-wrap">{emailOf(row.user_id) ?? <code className="muted">{row.user_id}</code>}</span>
            ),
          },
          {
            key: 'filed',
            header: 'Filed',
            render: (row) => (
              <>
                {when(row.created_at)}
                {row.description && <div className="muted">{row.description}</div>}
              </>
            ),
          },
          {
            key: 'due',
            header: 'Due',
            render: (row) => (
              <>
                {when(row.due_at)}
                {isOpen(row) && Date.parse(row.due_at) < now && <span className="badge org-risk-high">Overdue</span>}
              </>
            ),
          },
          statusColumn,
          ...(admin
            ? [
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (row: PrivacyRequest) =>
                    isOpen(row) ? (
                      <div className="org-inline">
                        {row.status === 'pending' && (
                          <button
                            type="button"
                            className="button"
                            aria-label={`Verify the identity for the ${row.request_type} request filed ${when(row.created_at)}`}
                            onClick={async () => {
                              try {
                                await api('POST', `/gdpr/admin/requests/${row.id}/verify`);
                                done('The requester’s identity is recorded as confirmed.');
                              } catch (reason) {
                                setError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
                              }
                            }}
                          >
                            Verify
                          </button>
                        )}
                        <ConfirmButton
                          label="Process"
                          danger={row.request_type === 'erasure'}
                          ariaLabel={`Process the ${row.request_type} request filed ${when(row.created_at)}`}
                          question={
                            row.request_type === 'erasure'
                              ? 'Erase this person’s personal data in this organization now? Their sessions here end; this cannot be undone. The audit log is kept.'
                              : row.request_type === 'rectification'
                                ? 'Record this rectification request as completed? Make the corrections themselves first.'
                                : 'Fulfil this request now? The export document is prepared for you to send to the requester.'
                          }
                          onConfirm={async () => {
                            const result = await api<ProcessOutcome>('POST', `/gdpr/admin/requests/${row.id}/process`);
                            setOutcome(result);
                            done(`The ${row.request_type} request is completed.`);
                          }}
                        />
                        <RejectButton request={row} onDone={() => done('The request was rejected.')} />
                      </div>
                    ) : (
                      <span className="muted">Resolved {when(row.resolved_at)}</span>
                    ),
                },
              ]
            : []),
        ]}
      />
      <CursorPager
        label="Data-subject requests"
        cursor={cursor}
        nextCursor={list.data?.next_cursor}
        onCursor={(next) => setCursor(next)}
      />
    </Section>
  );
}

function Privacy() {
  return (
    <Page
      title="Privacy requests and retention"
      description="Requests people filed about their personal data (due within 30 days), and how long the organization keeps each kind of record."
    >
      <Requests />
      <RetentionSection />
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/privacy',
    title: 'Privacy and retention',
    group: 'Organization',
    visible: (s) => s.can('compliance:read'),
    component: Privacy,
  },
  ...selfScreens,
];

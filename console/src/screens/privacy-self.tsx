import { useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import {
  type Column,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Field,
  Form,
  type FormValues,
  Notice,
  Page,
  Section,
} from '../ui';
import { downloadJson } from '../ui/org-download';
import { CursorPager, when } from '../ui/org-kit';
import { isOpen, type PrivacyRequest, REQUEST_TYPES, TYPE_LABELS } from './privacy-common';
import type { ScreenDef } from './types';

/** POST /api/v1/gdpr/requests: the request as filed, with the date it is due by. */
type FiledRequest = Answer<'/gdpr/requests', 'post', 201>;

/** A request's status and, when it was rejected, the reason: the same column on one's own and the admin's list. */
export const statusColumn: Column<PrivacyRequest> = {
  key: 'status',
  header: 'Status',
  render: (row) => (
    <>
      {row.status}
      {row.rejection_reason && <div className="muted">{row.rejection_reason}</div>}
    </>
  ),
};

/** The signed-in person's own privacy rights: download their data, file and follow their requests. */
function MyPrivacy() {
  const session = useSession();
  const mayWrite = session.can('identity:self:write');
  const [cursor, setCursor] = useQueryState('cursor');
  const mine = useApi<Answer<'/gdpr/requests'>>('/gdpr/requests', {
    limit: 25,
    cursor: cursor || undefined,
  });
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const [downloading, setDownloading] = useState(false);

  return (
    <Page
      title="My data and privacy"
      description={`What ${session.tenant.slug} holds about you: download it, or ask for access, a portable copy, correction or erasure.`}
    >
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      <Section title="Download my data">
        <p>Everything this organization holds about you, as one JSON document.</p>
        <button
          type="button"
          className="button"
          disabled={downloading}
          onClick={async () => {
            setDownloading(true);
            setError(undefined);
            try {
              downloadJson('my-data.json', await api('GET', '/gdpr/my-data'));
            } catch (reason) {
              setError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
            } finally {
              setDownloading(false);
            }
          }}
        >
          {downloading ? 'Preparing…' : 'Download my data'}
        </button>
      </Section>
      {mayWrite && (
        <Section title="File a request">
          <Form
            key={formKey}
            label="File a privacy request"
            submitLabel="File request"
            onSubmit={async (values: FormValues<'request_type' | 'description'>) => {
              const filed = await api<FiledRequest>('POST', '/gdpr/requests', {
                request_type: values.request_type as Body<'/gdpr/requests', 'post'>['request_type'],
                ...(values.description ? { description: values.description } : {}),
              } satisfies Body<'/gdpr/requests', 'post'>);
              setNotice(`Request filed; it is due by ${when(filed.due_at)}.`);
              setFormKey((n) => n + 1);
              mine.reload();
            }}
          >
            <Field
              name="request_type"
              label="What are you asking for?"
              options={REQUEST_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] ?? value }))}
            />
            <Field name="description" label="Details (optional)" multiline hint="At most 2,000 characters." />
          </Form>
        </Section>
      )}
      <Section title="My requests">
        <DataTable<PrivacyRequest>
          caption="My privacy requests"
          rows={mine.data?.requests}
          loading={mine.loading}
          error={mine.error}
          rowKey={(row) => row.id}
          empty="You have filed no request."
          server={{ hasMore: false }}
          columns={[
            { key: 'type', header: 'Type', render: (row) => TYPE_LABELS[row.request_type] ?? row.request_type },
            { key: 'filed', header: 'Filed', render: (row) => when(row.created_at) },
            { key: 'due', header: 'Due', render: (row) => when(row.due_at) },
            statusColumn,
            ...(mayWrite
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: PrivacyRequest) =>
                      isOpen(row) ? (
                        <ConfirmButton
                          label="Cancel request"
                          ariaLabel={`Cancel request: ${row.request_type}, filed ${when(row.created_at)}`}
                          question="Withdraw this request? It is closed as cancelled."
                          confirmLabel="Withdraw"
                          onConfirm={async () => {
                            await api('POST', `/gdpr/requests/${row.id}/cancel`);
                            setNotice('Request withdrawn.');
                            mine.reload();
                          }}
                        />
                      ) : (
                        <span className="muted">—</span>
                      ),
                  },
                ]
              : []),
          ]}
        />
        <CursorPager
          label="My privacy requests"
          cursor={cursor}
          nextCursor={mine.data?.next_cursor}
          onCursor={setCursor}
        />
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  { path: '/my-privacy', title: 'My data and privacy', group: 'You', visible: () => true, component: MyPrivacy },
];

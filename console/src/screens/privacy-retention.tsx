import { useState } from 'react';
import { type Answer, api, useApi } from '../api';
import { useSession } from '../session';
import { DataTable, Field, Form, Notice, Section } from '../ui';
import { Checkbox, when } from '../ui/org-kit';

/** GET /api/v1/retention (docs/privacy.md "Retention"): one data class's policy. */
type Policy = Answer<'/retention'>['policies'][number];
/** PUT /api/v1/retention/{data_class}: the policy as saved. */
type SavedPolicy = Answer<'/retention/{data_class}', 'put'>;
/** GET /api/v1/retention/preview: what a purge would delete now, per data class. */
type Preview = Answer<'/retention/preview'>;

const CLASS_LABELS: Record<string, string> = {
  events: 'Security events',
  dsr: 'Resolved data-subject requests',
  consent_events: 'Consent ledger',
};
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function PolicyForm(props: { policy: Policy; onSaved: (policy: SavedPolicy) => void; onCancel: () => void }) {
  const { policy } = props;
  return (
    <Form
      label={`Retention of ${CLASS_LABELS[policy.data_class] ?? policy.data_class}`}
      submitLabel="Save policy"
      secondary={
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      }
      onSubmit={async (values) => {
        const days = values.retention_days?.trim() ?? '';
        props.onSaved(
          await api<SavedPolicy>('PUT', `/retention/${policy.data_class}`, {
            // Sent as typed when it is not a whole number, so the API names the field (422) rather than the console guessing.
            retention_days: /^-?\d+$/.test(days) ? Number(days) : days,
            enabled: values.enabled === 'true',
            archive_before_delete: values.archive_before_delete === 'true',
            legal_hold_exempt: values.legal_hold_exempt === 'true',
            notes: values.notes ? values.notes : null,
          }),
        );
      }}
    >
      <Field
        name="retention_days"
        label="Keep records for (days)"
        type="number"
        required
        defaultValue={String(policy.retention_days)}
        hint="1 to 36,500 days."
      />
      <Checkbox
        name="enabled"
        label="Purge records older than this (hourly)"
        defaultChecked={policy.enabled}
        hint="Off: nothing is deleted; the preview still shows what would be."
      />
      <Checkbox
        name="archive_before_delete"
        label="Archive each record before deleting it"
        defaultChecked={policy.archive_before_delete}
      />
      <Checkbox
        name="legal_hold_exempt"
        label="Purge even records held for an open data-subject request"
        defaultChecked={policy.legal_hold_exempt}
        hint="Leave off unless your counsel says otherwise: records about a person with an open request are held."
      />
      <Field name="notes" label="Notes" multiline defaultValue={policy.notes ?? ''} />
    </Form>
  );
}

export function RetentionSection() {
  const session = useSession();
  const admin = session.can('compliance:admin');
  const policies = useApi<Answer<'/retention'>>('/retention');
  const preview = useApi<Preview>('/retention/preview');
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const edited = policies.data?.policies.find((p) => p.data_class === editing);
  const previewOf = (dataClass: string) => preview.data?.policies.find((p) => p.data_class === dataClass);

  return (
    <Section title="Retention">
      {notice && <Notice>{notice}</Notice>}
      <DataTable<Policy>
        caption="Retention policies"
        pageParam="retention_page"
        rows={policies.data?.policies}
        loading={policies.loading}
        error={policies.error}
        rowKey={(row) => row.data_class}
        columns={[
          { key: 'class', header: 'Records', render: (row) => CLASS_LABELS[row.data_class] ?? row.data_class },
          {
            key: 'days',
            header: 'Kept (days)',
            numeric: true,
            render: (row) => row.retention_days.toLocaleString('en'),
          },
          { key: 'enabled', header: 'Purging', render: (row) => (row.enabled ? 'On' : 'Off') },
          { key: 'archive', header: 'Archive first', render: (row) => yesNo(row.archive_before_delete) },
          { key: 'hold', header: 'Ignores legal hold', render: (row) => yesNo(row.legal_hold_exempt) },
          {
            key: 'past',
            header: 'Past retention now',
            numeric: true,
            render: (row) => {
              const p = previewOf(row.data_class);
              return p ? `${p.records_past_retention} (${p.held_records} held, ${p.purgeable_records} purgeable)` : '—';
            },
          },
          {
            key: 'changed',
            header: 'Changed',
            render: (row) => (row.updated_at ? when(row.updated_at) : <span className="muted">Default</span>),
          },
          ...(admin
            ? [
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (row: Policy) => (
                    <button
                      type="button"
                      className="button"
                      aria-label={`Edit the retention of ${CLASS_LABELS[row.data_class] ?? row.data_class}`}
                      onClick={() => setEditing(row.data_class)}
                    >
                      Edit
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {admin && edited && (
        <>
          <h3>Edit: {CLASS_LABELS[edited.data_class] ?? edited.data_class}</h3>
          <PolicyForm
            key={edited.data_class}
            policy={edited}
            onCancel={() => setEditing(undefined)}
            onSaved={(saved) => {
              setEditing(undefined);
              setNotice(
                `${CLASS_LABELS[saved.data_class] ?? saved.data_class}: kept ${saved.retention_days} days, purging ${saved.enabled ? 'on' : 'off'}.`,
              );
              policies.reload();
              preview.reload();
            }}
          />
        </>
      )}
    </Section>
  );
}

import { useId, useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { DataTable, ErrorBanner, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/org-kit';
import type { ScreenDef } from './types';

/**
 * The organization's settings, rendered from the registry (`GET /api/v1/tenants/config/schema`): each key's
 * control follows its type (boolean, integer with bounds, string with its allowed values or the `instant`
 * format), saved one key at a time with `PATCH /tenants/config/{key}`, with its change history.
 */

/** GET /api/v1/tenants/config/schema: one key of the registry with the organization's value. */
type SettingRecord = Answer<'/tenants/config/schema'>[number];
/** PATCH /api/v1/tenants/config/{key}: the key as saved. */
type SavedSetting = Answer<'/tenants/config/{key}', 'patch'>;
/** GET /api/v1/tenants/config/{key}/history: one change of a key. */
type SettingChange = Answer<'/tenants/config/{key}/history'>[number];
type Value = SettingRecord['value'];

const GROUPS: Record<string, string> = {
  auth: 'Sign-in',
  members: 'Members',
  autonomy: 'Autonomous response',
};

const shown = (value: Value) =>
  typeof value === 'boolean' ? (value ? 'On' : 'Off') : value === '' ? '(empty)' : String(value);

/** An ISO instant as a datetime-local value (local time, minutes), and back. */
const toLocalInput = (iso: string) => {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (local: string) => (local ? new Date(local).toISOString() : '');

/** The value the form holds, typed as the registry says (the API never coerces: `"false"` is not a boolean). */
function formValue(record: SettingRecord, form: HTMLFormElement): Value {
  const input = form.elements.namedItem('value') as HTMLInputElement | HTMLSelectElement | null;
  if (record.type === 'boolean') return (input as HTMLInputElement | null)?.checked ?? false;
  const raw = input?.value ?? '';
  if (record.type === 'integer') return raw.trim() === '' ? Number.NaN : Number(raw);
  if (record.format === 'instant') return fromLocalInput(raw);
  return raw;
}

function History(props: { settingKey: string }) {
  const history = useApi<SettingChange[]>(`/tenants/config/${encodeURIComponent(props.settingKey)}/history`);
  return (
    <DataTable<SettingChange>
      caption={`Changes of ${props.settingKey}`}
      pageParam={`history_${props.settingKey.replace(/[^a-z0-9]+/gi, '_')}`}
      pageSize={10}
      rows={history.data}
      loading={history.loading}
      error={history.error}
      rowKey={(row) => `${row.changed_at}-${String(row.new_value)}`}
      empty="Never changed: it has always had its default."
      columns={[
        { key: 'when', header: 'When', render: (row) => when(row.changed_at) },
        { key: 'old', header: 'From', render: (row) => shown(row.old_value) },
        { key: 'new', header: 'To', render: (row) => shown(row.new_value) },
        {
          key: 'by',
          header: 'Changed by',
          render: (row) => (row.changed_by.id ? `${row.changed_by.type} ${row.changed_by.id}` : row.changed_by.type),
        },
      ]}
    />
  );
}

function Control(props: { record: SettingRecord; id: string; describedBy: string; invalid: boolean }) {
  const { record } = props;
  const common = {
    id: props.id,
    name: 'value',
    'aria-describedby': props.describedBy,
    'aria-invalid': props.invalid ? true : undefined,
  };
  if (record.type === 'boolean')
    return (
      <div className="org-check">
        <input {...common} type="checkbox" defaultChecked={record.value === true} />
        <label htmlFor={props.id}>On</label>
      </div>
    );
  if (record.type === 'integer')
    return (
      <input
        {...common}
        type="number"
        step={1}
        min={record.bounds?.min}
        max={record.bounds?.max}
        defaultValue={String(record.value)}
      />
    );
  if (record.allowed)
    return (
      <select {...common} defaultValue={String(record.value)}>
        {record.allowed.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
    );
  if (record.format === 'instant')
    return <input {...common} type="datetime-local" defaultValue={toLocalInput(String(record.value))} />;
  return <input {...common} type="text" defaultValue={String(record.value)} />;
}

function SettingRow(props: { record: SettingRecord; onSaved: (record: SavedSetting) => void }) {
  const id = useId();
  const { record } = props;
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [generation, setGeneration] = useState(0);

  const save = async (value: Value) => {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api<SavedSetting>('PATCH', `/tenants/config/${encodeURIComponent(record.key)}`, {
        value,
      } satisfies Body<'/tenants/config/{key}', 'patch'>);
      setGeneration((n) => n + 1);
      props.onSaved(saved);
    } catch (reason) {
      setError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
    } finally {
      setBusy(false);
    }
  };

  const rule = record.bounds
    ? `An integer from ${record.bounds.min} to ${record.bounds.max}.`
    : record.allowed
      ? `One of: ${record.allowed.join(', ')}.`
      : record.format === 'instant'
        ? 'A date and time (your local time), or empty.'
        : '';
  const describedBy = [`${id}-summary`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="org-setting" data-setting={record.key}>
      <form
        // A saved value (or a reset) re-renders the inputs from the record.
        key={String(record.value)}
        className="form"
        aria-label={record.key}
        onSubmit={(event) => {
          event.preventDefault();
          void save(formValue(record, event.currentTarget));
        }}
      >
        <div className={error ? 'field field-invalid' : 'field'}>
          <div className="org-setting-head">
            <label htmlFor={id}>
              <code>{record.key}</code>
            </label>
            {record.risk !== 'low' && <span className={`badge org-risk-${record.risk}`}>{record.risk} risk</span>}
            {record.overridden && <span className="badge">Changed</span>}
          </div>
          <p id={`${id}-summary`} className="hint">
            {record.summary} {rule} Default: {shown(record.default)}.
          </p>
          <Control record={record} id={id} describedBy={describedBy} invalid={!!error} />
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error.detail}
            </p>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy} aria-label={`Save ${record.key}`}>
            {busy ? 'Saving…' : 'Save'}
          </button>
          {record.overridden && (
            <button type="button" className="button" disabled={busy} onClick={() => void save(record.default)}>
              Reset to default
            </button>
          )}
          <button
            type="button"
            className="button"
            aria-expanded={historyOpen}
            aria-controls={`${id}-history`}
            onClick={() => setHistoryOpen((open) => !open)}
          >
            {historyOpen ? 'Hide history' : 'History'}
          </button>
        </div>
      </form>
      <div id={`${id}-history`}>{historyOpen && <History key={generation} settingKey={record.key} />}</div>
    </div>
  );
}

function Settings() {
  const schema = useApi<SettingRecord[]>('/tenants/config/schema');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const groups = new Map<string, SettingRecord[]>();
  for (const record of schema.data ?? []) {
    const prefix = record.key.split('.')[0] ?? record.key;
    groups.set(prefix, [...(groups.get(prefix) ?? []), record]);
  }
  return (
    <Page
      title="Settings"
      description="The organization's settings. Every change is recorded with who made it; changing a high-risk setting also raises a detection in the Command Center."
    >
      {notice && <Notice>{notice}</Notice>}
      {schema.loading && !schema.data && <Loading />}
      <ErrorBanner error={schema.error} />
      {[...groups].map(([prefix, records]) => (
        <Section key={prefix} title={GROUPS[prefix] ?? prefix}>
          {records.map((record) => (
            <SettingRow
              key={record.key}
              record={record}
              onSaved={(saved) => {
                setNotice(`${saved.key} is now ${shown(saved.value)}.`);
                schema.reload();
              }}
            />
          ))}
        </Section>
      ))}
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/settings',
    title: 'Settings',
    group: 'Organization',
    visible: (s) => s.can('tenant:manage'),
    component: Settings,
  },
];

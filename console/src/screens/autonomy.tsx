import { useId, useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { Link, useQueryState } from '../router';
import { useSession } from '../session';
import {
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Field,
  FilterSelect,
  Form,
  Loading,
  Notice,
  Page,
  Section,
} from '../ui';
import { StateTag, when } from '../ui/agents-kit';
import { AutonomyGraduation, AutonomyMetrics } from './autonomy-insight';
import type { ScreenDef } from './types';

/**
 * Autonomous response (Part B 4.9, docs/autonomy.md): the decision ledger with adjudication and revert, the
 * autonomy kill switch, metrics and graduation.
 */

const MODES = ['dry_run', 'shadow', 'proposed', 'denied', 'expired', 'executing', 'executed', 'reversed'];

/** GET /autonomy/decisions: one decision of the ledger. */
type Decision = Answer<'/autonomy/decisions'>['decisions'][number];
/** GET /autonomy/kill-switch */
type KillSwitch = Answer<'/autonomy/kill-switch'>;

const awaitingVerdict = (d: Decision) => d.mode === 'proposed' && d.adjudication === 'pending';
const flags = (d: Decision) =>
  [d.actionable && 'actionable', d.revertible && 'revertible', d.unattended && 'unattended']
    .filter(Boolean)
    .join(', ') || '—';

function KillSwitchSection() {
  const session = useSession();
  const state = useApi<KillSwitch>('/autonomy/kill-switch');
  const [done, setDone] = useState<string | undefined>(undefined);
  const k = state.data;
  const canDisable = session.can('autonomy:disable');
  return (
    <Section title="Kill switch">
      {state.error && <ErrorBanner error={state.error} />}
      {state.loading && !k && <Loading label="Loading the kill switch" />}
      {k && (
        <dl className="facts">
          <dt>State</dt>
          <dd data-testid="autonomy-kill-state">
            {k.engaged ? <StateTag value="engaged" label="Engaged: autonomy stopped" /> : 'Released: autonomy runs'}
          </dd>
          <dt>Scope</dt>
          <dd>{k.scope === 'global' ? 'Every organization' : 'This organization'}</dd>
          {k.engaged && (
            <>
              <dt>Until</dt>
              <dd data-testid="autonomy-kill-until">{k.indefinite ? 'Released by a person' : when(k.until)}</dd>
              <dt>Reason</dt>
              <dd data-testid="autonomy-kill-reason">{k.reason ?? '—'}</dd>
            </>
          )}
        </dl>
      )}
      {done && <Notice>{done}</Notice>}
      {k && canDisable && (
        <Form
          label="Engage the autonomy kill switch"
          submitLabel="Engage the kill switch"
          danger
          onSubmit={async (values) => {
            const hours = values.hours ? Number(values.hours) : undefined;
            await api<Answer<'/autonomy/kill-switch', 'post'>>('POST', '/autonomy/kill-switch', {
              enable: true,
              hours,
              reason: values.reason || undefined,
            } satisfies Body<'/autonomy/kill-switch', 'post'>);
            setDone(hours ? `Autonomy stopped for ${hours} h.` : 'Autonomy stopped until released.');
            state.reload();
          }}
        >
          <Field
            name="hours"
            label="For"
            options={[
              ...k.offered_hours.map((h) => ({ value: String(h), label: `${h} hour${h === 1 ? '' : 's'}` })),
              { value: '', label: 'Indefinitely (until released)' },
            ]}
          />
          <Field
            name="reason"
            label="Reason"
            multiline
            hint="Required to stop indefinitely. Each change raises a critical detection."
          />
        </Form>
      )}
      {k?.engaged && canDisable && (
        <ConfirmButton
          label="Release the kill switch"
          question="Release the kill switch? Autonomous response resumes at the configured levels."
          confirmLabel="Release"
          danger={false}
          onConfirm={async () => {
            await api<Answer<'/autonomy/kill-switch', 'post'>>('POST', '/autonomy/kill-switch', {
              enable: false,
            } satisfies Body<'/autonomy/kill-switch', 'post'>);
            setDone('Kill switch released.');
            state.reload();
          }}
        />
      )}
    </Section>
  );
}

function RevertForm(props: { decision: Decision; onDone: (text: string) => void }) {
  const [reason, setReason] = useState('');
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Reason for the revert</label>
      <textarea id={id} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={1000} />
      <ConfirmButton
        label="Revert"
        ariaLabel="Revert this decision"
        disabled={!reason.trim()}
        question={`Revert "${props.decision.effect}"? The class is held below unattended operation for 30 days.`}
        onConfirm={async () => {
          const res = await api<Answer<'/autonomy/decisions/{id}/revert', 'post'>>(
            'POST',
            `/autonomy/decisions/${props.decision.id}/revert`,
            {
              reason: reason.trim(),
            } satisfies Body<'/autonomy/decisions/{id}/revert', 'post'>,
          );
          props.onDone(res.detail || 'Reverted.');
        }}
      />
    </div>
  );
}

function DecisionPanel(props: { decision: Decision; onChanged: () => void; onClose: () => void }) {
  const session = useSession();
  const d = props.decision;
  const [done, setDone] = useState<string | undefined>(undefined);
  const canApprove = session.can('autonomy:approve');
  const finish = (text: string) => {
    setDone(text);
    props.onChanged();
  };
  return (
    <Section
      title="Decision"
      actions={
        <button type="button" className="button" onClick={props.onClose}>
          Close
        </button>
      }
    >
      <dl className="facts">
        <dt>Effect</dt>
        <dd>{d.effect}</dd>
        <dt>Rule</dt>
        <dd>{d.rule_id}</dd>
        <dt>Action</dt>
        <dd>{d.action_id}</dd>
        <dt>Class and level</dt>
        <dd>
          {d.blast_class} at {d.level}
        </dd>
        <dt>Target</dt>
        <dd>{d.target_id}</dd>
        <dt>Mode</dt>
        <dd>{d.mode}</dd>
        <dt>Adjudication</dt>
        <dd>
          {d.adjudication}
          {d.decided_by && ` by ${d.decided_by === session.me.user_id ? 'you' : d.decided_by}`}
          {d.decision_reason && `: ${d.decision_reason}`}
        </dd>
        <dt>Recorded</dt>
        <dd>{when(d.created_at)}</dd>
        {d.executed_at && (
          <>
            <dt>Executed</dt>
            <dd>{when(d.executed_at)}</dd>
          </>
        )}
        {d.reverted_at && (
          <>
            <dt>Reverted</dt>
            <dd>
              {when(d.reverted_at)}: {d.revert_reason}
            </dd>
          </>
        )}
      </dl>
      {done && <Notice>{done}</Notice>}
      {canApprove && awaitingVerdict(d) && (
        <Form
          label="Adjudicate this decision"
          submitLabel="Record the verdict"
          onSubmit={async (values) => {
            const res = await api<Answer<'/autonomy/decisions/{id}/adjudicate', 'post'>>(
              'POST',
              `/autonomy/decisions/${d.id}/adjudicate`,
              {
                approve: values.approve === 'true',
                reason: values.reason || undefined,
              } satisfies Body<'/autonomy/decisions/{id}/adjudicate', 'post'>,
            );
            finish(`Outcome: ${res.outcome}${res.executed ? ' (executed)' : ''}${res.reason ? `: ${res.reason}` : ''}`);
          }}
        >
          <Field
            name="approve"
            label="Verdict"
            options={[
              { value: 'true', label: 'Approve: execute it now' },
              { value: 'false', label: 'Deny' },
            ]}
          />
          <Field name="reason" label="Reason" multiline />
        </Form>
      )}
      {canApprove && d.mode === 'executed' && d.revertible && <RevertForm decision={d} onDone={finish} />}
    </Section>
  );
}

function Autonomy() {
  const [mode] = useQueryState('mode');
  const [limit, setLimit] = useQueryState('limit');
  const [selected, setSelected] = useQueryState('decision');
  const decisions = useApi<Answer<'/autonomy/decisions'>>('/autonomy/decisions', {
    mode: mode || undefined,
    limit: limit || 50,
  });
  const rows = decisions.data?.decisions;
  const current = rows?.find((d) => d.id === selected);
  return (
    <Page
      title="Autonomous response"
      description="What security detections did or proposed on their own, with the verdicts of people and the kill switch."
    >
      <KillSwitchSection />
      <Section title="Decisions">
        <div className="filters">
          <FilterSelect
            param="mode"
            label="Mode"
            options={[{ value: '', label: 'Every mode' }, ...MODES.map((m) => ({ value: m, label: m }))]}
          />
          <FilterSelect
            param="limit"
            label="Newest"
            options={['50', '100', '200'].map((n) => ({ value: n === '50' ? '' : n, label: n }))}
          />
        </div>
        <DataTable<Decision>
          caption="Autonomy decisions"
          pageParam="page"
          rows={rows}
          loading={decisions.loading}
          error={decisions.error}
          rowKey={(row) => row.id}
          empty={mode ? 'No decision in this mode.' : 'No decision recorded yet.'}
          columns={[
            { key: 'effect', header: 'Effect', render: (row) => row.effect },
            { key: 'rule', header: 'Rule', render: (row) => row.rule_id },
            { key: 'class', header: 'Class', render: (row) => row.blast_class },
            { key: 'target', header: 'Target', render: (row) => row.target_id },
            { key: 'mode', header: 'Mode', render: (row) => <StateTag value={row.mode} /> },
            { key: 'adjudication', header: 'Adjudication', render: (row) => row.adjudication },
            { key: 'flags', header: 'Flags', render: flags },
            { key: 'created', header: 'Recorded', render: (row) => when(row.created_at) },
            {
              key: 'open',
              header: 'Details',
              render: (row) => (
                <button
                  type="button"
                  className="button"
                  aria-label={`Open the decision: ${row.effect}`}
                  onClick={() => setSelected(row.id)}
                >
                  Open
                </button>
              ),
            },
          ]}
        />
        {limit && (
          <button type="button" className="button" onClick={() => setLimit(undefined)}>
            Show the newest 50
          </button>
        )}
      </Section>
      {current && (
        <DecisionPanel
          key={current.id}
          decision={current}
          onChanged={decisions.reload}
          onClose={() => setSelected(undefined)}
        />
      )}
      <AutonomyMetrics />
      <AutonomyGraduation />
      <Section title="Levels">
        <p>
          How far each class may act (<code>autonomy.level_&lt;class&gt;</code>: manual, recommend, graduated, full) is
          an organization setting: change it on the <Link to="/settings">Settings</Link> screen (needs{' '}
          <code>autonomy:manage</code> and <code>tenant:manage</code>).
        </p>
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/autonomy',
    title: 'Autonomous response',
    group: 'Command Center',
    visible: (s) => s.can('autonomy:read'),
    component: Autonomy,
  },
];

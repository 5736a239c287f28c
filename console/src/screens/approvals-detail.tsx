import { useId, useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { Link } from '../router';
import { useSession } from '../session';
import { DataTable, ErrorBanner, Loading, Notice, Page, Section } from '../ui';
import { type Approval, StateTag, useNames, when } from '../ui/agents-kit';

/** GET /approvals/{id}: the ask with each decision recorded on it. */
type ApprovalDetail = Answer<'/approvals/{id}'>;
type Decision = ApprovalDetail['decisions'][number];
/** POST /approvals/{id}/decide: the ask after this decision. */
type Decided = Answer<'/approvals/{id}/decide', 'post'>;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** What is decided, as recorded: a parked call's method, route, parameters and body; content's hash and title. */
function BoundAction(props: { ask: Approval }) {
  const { ask } = props;
  const r = ask.resource;
  return (
    <Section title="What is asked">
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{ask.resource_type === 'action' ? 'A parked agent action' : ask.resource_type}</dd>
        {r && typeof r.method === 'string' && (
          <>
            <dt>Call</dt>
            <dd data-testid="ask-call">
              <code className="code-inline">
                {r.method} {String(r.route)}
              </code>
            </dd>
          </>
        )}
        {r && typeof r.title === 'string' && (
          <>
            <dt>Title</dt>
            <dd>{r.title}</dd>
          </>
        )}
        {r && typeof r.summary === 'string' && (
          <>
            <dt>Summary</dt>
            <dd>{r.summary}</dd>
          </>
        )}
        <dt>Needs</dt>
        <dd>
          <code className="code-inline">{ask.required_permission ?? '—'}</code>
        </dd>
        <dt>{ask.resource_type === 'content' ? 'Content hash' : 'Fingerprint'}</dt>
        <dd className="break-anywhere" data-testid="ask-fingerprint">
          <code className="code-inline">{ask.fingerprint}</code>
        </dd>
      </dl>
      {r && r.params !== undefined && Object.keys(r.params as object).length > 0 && (
        <>
          <h3>Path parameters</h3>
          <pre className="code-block">{json(r.params)}</pre>
        </>
      )}
      {r && r.body !== undefined && (
        <>
          <h3>Body</h3>
          <pre className="code-block" data-testid="ask-body">
            {json(r.body)}
          </pre>
        </>
      )}
      {!r && <p className="muted">No detail of the action was recorded.</p>}
      <p className="hint">
        The approval binds to this fingerprint: the agent's identical call runs once; anything else is asked afresh.
      </p>
    </Section>
  );
}

/** Approve or deny with a reason; break-glass for an owner where two approvers are required. */
function Decide(props: { ask: Approval; onDecided: (ask: Decided) => void }) {
  const session = useSession();
  const { ask } = props;
  const id = useId();
  const [reason, setReason] = useState('');
  const [breakGlass, setBreakGlass] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | undefined>(undefined);
  const fieldError = error instanceof ApiError && error.field === 'reason' ? error.detail : undefined;

  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      props.onDecided(
        await api<Decided>('POST', `/approvals/${ask.id}/decide`, {
          approve,
          ...(reason.trim() ? { reason } : {}),
          ...(breakGlass ? { break_glass: true } : {}),
        } satisfies Body<'/approvals/{id}/decide', 'post'>),
      );
    } catch (failure) {
      setError(failure instanceof Error ? failure : new Error(String(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form"
      aria-label="Decide"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <div className={fieldError ? 'field field-invalid' : 'field'}>
        <label htmlFor={`${id}-reason`}>Reason</label>
        <textarea
          id={`${id}-reason`}
          name="reason"
          rows={3}
          maxLength={2000}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ''}`}
          aria-invalid={fieldError ? true : undefined}
        />
        <p id={`${id}-hint`} className="hint">
          Recorded with your decision in the audit trail.
        </p>
        {fieldError && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {fieldError}
          </p>
        )}
      </div>
      {session.me.is_owner && ask.required_approvals > 1 && (
        <label className="check-row">
          <input type="checkbox" checked={breakGlass} onChange={(event) => setBreakGlass(event.target.checked)} />
          <span>
            Break glass: settle it on my approval alone (owners only; recorded as critical and raises a detection)
          </span>
        </label>
      )}
      {error && !fieldError && <ErrorBanner error={error} />}
      <div className="form-actions">
        <button type="button" className="button primary" disabled={busy} onClick={() => decide(true)}>
          Approve
        </button>
        <button type="button" className="button danger" disabled={busy} onClick={() => decide(false)}>
          Deny
        </button>
      </div>
    </form>
  );
}

export function ApprovalDetailScreen(props: { approvalId: string }) {
  const session = useSession();
  const names = useNames();
  const detail = useApi<ApprovalDetail>(`/approvals/${encodeURIComponent(props.approvalId)}`);
  const [decided, setDecided] = useState<string | undefined>(undefined);
  const ask = detail.data;

  if (!ask) {
    return (
      <Page title="Approval ask">
        <p>
          <Link to="/approvals">The queue</Link>
        </p>
        {detail.loading ? <Loading /> : <ErrorBanner error={detail.error} />}
      </Page>
    );
  }
  const mine = ask.decisions.some((d) => d.decided_by === session.me.user_id);
  const holdsAsked = ask.required_permission === null || session.can(ask.required_permission);
  const mayDecide = session.can('agents:approvals:decide') && holdsAsked;
  return (
    <Page title="Approval ask" description={ask.justification ? `Task: ${ask.justification}` : undefined}>
      <p>
        <Link to="/approvals">The queue</Link>
      </p>
      {decided && <Notice>{decided}</Notice>}
      <Section title="Request">
        <dl className="facts">
          <dt>Status</dt>
          <dd data-testid="ask-status">
            <StateTag value={ask.status} />
          </dd>
          <dt>Requested by</dt>
          <dd>
            {ask.agent_id ? (
              <Link to={`/agents/${ask.agent_id}`}>{names.agent(ask.agent_id)}</Link>
            ) : (
              names.agent(ask.requested_by)
            )}
          </dd>
          <dt>Approvals</dt>
          <dd>
            {ask.approvals_recorded} of {ask.required_approvals} required
          </dd>
          <dt>Asked</dt>
          <dd>{when(ask.created_at)}</dd>
          <dt>Expires</dt>
          <dd>{when(ask.expires_at)}</dd>
          {ask.decided_at && (
            <>
              <dt>Decided</dt>
              <dd>
                {when(ask.decided_at)} by {names.person(ask.decided_by)}
              </dd>
            </>
          )}
          {ask.reason && (
            <>
              <dt>Reason</dt>
              <dd>{ask.reason}</dd>
            </>
          )}
          {ask.consumed_at && (
            <>
              <dt>Used</dt>
              <dd>{when(ask.consumed_at)}</dd>
            </>
          )}
        </dl>
      </Section>
      <BoundAction ask={ask} />
      {ask.status === 'pending' && (
        <Section title="Decision">
          {!mayDecide ? (
            <p className="muted" data-testid="cannot-decide">
              {session.can('agents:approvals:decide')
                ? `Deciding it needs ${ask.required_permission}, which your role does not hold: the approver must be able to do it themselves.`
                : 'Your role may read the queue but not decide (agents:approvals:decide).'}
            </p>
          ) : mine ? (
            <p className="muted">You approved it; another person must approve it too.</p>
          ) : (
            <Decide
              ask={ask}
              onDecided={(next) => {
                setDecided(
                  next.status === 'pending'
                    ? `Your approval is recorded: ${next.approvals_recorded} of ${next.required_approvals}.`
                    : `The ask is ${next.status}.`,
                );
                detail.reload();
              }}
            />
          )}
        </Section>
      )}
      <Section title="Decisions">
        <DataTable<Decision>
          caption="Decisions on this ask"
          pageParam="decisions_page"
          rows={ask.decisions}
          rowKey={(row) => `${row.decided_by}-${row.decided_at}`}
          empty="Nobody has decided yet."
          columns={[
            { key: 'who', header: 'Person', render: (row) => names.person(row.decided_by) },
            {
              key: 'what',
              header: 'Decision',
              render: (row) => (
                <>
                  <StateTag value={row.approve ? 'approved' : 'denied'} label={row.approve ? 'Approve' : 'Deny'} />
                  {row.break_glass && <span className="state state-bad">break-glass</span>}
                </>
              ),
            },
            { key: 'reason', header: 'Reason', render: (row) => row.reason ?? '—' },
            { key: 'when', header: 'When', render: (row) => when(row.decided_at) },
          ]}
        />
      </Section>
    </Page>
  );
}

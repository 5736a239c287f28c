import { useState } from 'react';
import { type Answer, ApiError, api, type Body } from '../api';
import { ConfirmButton, ErrorBanner, Field, Form, Loading, Notice, SecretOnce } from '../ui';

/** GET /api/v1/mfa/status: whether TOTP is on and how many recovery codes are left. */
export type MfaStatus = Answer<'/mfa/status'>;
/** POST /api/v1/mfa/setup: the TOTP secret to enroll and the first recovery codes. */
type Setup = Answer<'/mfa/setup', 'post'>;
/** POST /api/v1/mfa/recovery-codes/regenerate. */
type RegeneratedCodes = Answer<'/mfa/recovery-codes/regenerate', 'post'>;

/**
 * The MFA routes answer a wrong code (or password) with 400 and a spent budget with 429, not a 422 naming the
 * field; the person still needs the answer next to the field they typed into, so it is re-addressed to it.
 */
class FieldError extends ApiError {
  override readonly field: string | undefined;
  constructor(error: ApiError, field: string) {
    super(error.status, error.detail);
    this.field = field;
  }
}

export async function aimedAt<T>(field: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 429)) throw new FieldError(error, field);
    throw error;
  }
}

/** `JBSWY3DPEHPK3PXP` -> `JBSW Y3DP EHPK 3PXP`: easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** TOTP enrollment, replacing recovery codes and turning TOTP off: `/api/v1/mfa/*` (docs/mfa.md). */
export function MfaManagement(props: {
  status: MfaStatus | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): void;
}) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [starting, setStarting] = useState<{ busy: boolean; error?: Error }>({ busy: false });
  const [codes, setCodes] = useState<{ title: string; codes: string[] } | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [done, setDone] = useState('');
  const { status } = props;

  if (props.loading && !status) return <Loading label="Loading two-step verification" />;
  if (props.error?.status === 503)
    return <p className="muted">Two-step verification is not available on this installation.</p>;
  if (props.error) return <ErrorBanner error={props.error} />;
  if (!status) return null;

  const start = async () => {
    setStarting({ busy: true });
    setDone('');
    try {
      setSetup(await api<Setup>('POST', '/mfa/setup'));
      setStarting({ busy: false });
    } catch (error) {
      setStarting({ busy: false, error: error as Error });
    }
    props.reload();
  };

  return (
    <>
      <p data-testid="mfa-status">
        {status.mfa_enabled
          ? `On (authenticator app); ${status.recovery_codes_remaining} recovery codes left.`
          : status.enrollment_pending
            ? 'Set up but not yet confirmed with a code.'
            : 'Off.'}
      </p>
      {done && <Notice>{done}</Notice>}
      {codes && <SecretOnce label={codes.title} value={codes.codes.join(' ')} onDone={() => setCodes(null)} />}

      {!status.mfa_enabled && !setup && (
        <>
          <ErrorBanner error={starting.error} />
          {status.enrollment_pending && (
            <p className="hint">
              An earlier set-up was not confirmed. Its secret cannot be shown again: start again for a new one.
            </p>
          )}
          <button type="button" className="button primary" disabled={starting.busy} onClick={start}>
            {starting.busy
              ? 'Starting…'
              : status.enrollment_pending
                ? 'Start set-up again'
                : 'Set up an authenticator app'}
          </button>
        </>
      )}

      {!status.mfa_enabled && setup && (
        <div className="mfa-setup">
          <p>Add this account to your authenticator app, with the key or the link, then enter the code it shows.</p>
          <dl className="facts">
            <dt>Key</dt>
            <dd>
              <code data-testid="mfa-secret">{grouped(setup.secret)}</code>
            </dd>
            <dt>Link</dt>
            <dd>
              <a href={setup.provisioning_uri} data-testid="mfa-uri">
                {setup.provisioning_uri}
              </a>
            </dd>
          </dl>
          <Form
            label="Confirm the authenticator app"
            submitLabel="Turn on"
            onSubmit={async (values) => {
              await aimedAt(
                'code',
                api('POST', '/mfa/setup/verify', {
                  code: (values.code ?? '').replace(/\s/g, ''),
                } satisfies Body<'/mfa/setup/verify', 'post'>),
              );
              setCodes({ title: 'Recovery codes', codes: setup.recovery_codes });
              setSetup(null);
              setDone('Two-step verification is on. Keep the recovery codes somewhere safe.');
              props.reload();
            }}
          >
            <Field
              name="code"
              label="Code from the app"
              required
              autoComplete="one-time-code"
              hint="6 digits. Each code works once."
            />
          </Form>
          <button type="button" className="button" onClick={() => setSetup(null)}>
            Cancel set-up
          </button>
        </div>
      )}

      {status.mfa_enabled && (
        <>
          <h4>Recovery codes</h4>
          <Form
            label="Replace the recovery codes"
            submitLabel="Replace recovery codes"
            onSubmit={async (values) => {
              setDone('');
              const answer = await aimedAt<RegeneratedCodes>(
                'code',
                api('POST', '/mfa/recovery-codes/regenerate', {
                  code: (values.code ?? '').trim(),
                } satisfies Body<'/mfa/recovery-codes/regenerate', 'post'>),
              );
              setCodes({ title: 'New recovery codes', codes: answer.recovery_codes });
              setDone('New recovery codes: the earlier ones no longer work.');
              props.reload();
            }}
          >
            <Field
              name="code"
              label="Code for new recovery codes"
              required
              autoComplete="one-time-code"
              hint="A code from your app, or one unused recovery code."
            />
          </Form>
          <h4>Turn off</h4>
          {!disabling ? (
            <ConfirmButton
              label="Turn off two-step verification"
              question="Turn off two-step verification? Sign-ins then need only your first factor. You confirm with a code next."
              confirmLabel="Continue"
              onConfirm={() => setDisabling(true)}
            />
          ) : (
            <Form
              label="Turn off two-step verification"
              submitLabel="Turn off"
              danger
              onSubmit={async (values) => {
                await aimedAt(
                  'code',
                  api('POST', '/mfa/disable', {
                    code: (values.code ?? '').trim(),
                  } satisfies Body<'/mfa/disable', 'post'>),
                );
                setDisabling(false);
                setCodes(null);
                setDone('Two-step verification is off.');
                props.reload();
              }}
            >
              <Field
                name="code"
                label="Code to turn off"
                required
                autoComplete="one-time-code"
                hint="A code from your app, or one unused recovery code."
              />
            </Form>
          )}
          {disabling && (
            <button type="button" className="button" onClick={() => setDisabling(false)}>
              Keep it on
            </button>
          )}
        </>
      )}
    </>
  );
}

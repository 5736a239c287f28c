import { useState } from 'react';
import { rememberedOrganization, signIn } from './auth';
import { ErrorBanner } from './ui';

/** The signed-out screen: which organization, then the provider's /login page. */
export function SignIn(props: { error?: Error }) {
  const params = new URLSearchParams(location.search);
  const [organization, setOrganization] = useState(params.get('org') ?? rememberedOrganization());
  const [error, setError] = useState<Error | undefined>(props.error);
  const [busy, setBusy] = useState(false);
  return (
    <main className="centered">
      <div className="card sign-in">
        <h1>Console</h1>
        <p className="muted">Sign in to administer your organization.</p>
        {error && <ErrorBanner error={error} />}
        <form
          className="form"
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            try {
              const back =
                location.pathname === '/console/callback' ? '/console/' : location.pathname + location.search;
              await signIn(organization, back);
            } catch (reason) {
              setError(reason instanceof Error ? reason : new Error(String(reason)));
              setBusy(false);
            }
          }}
        >
          <div className="field">
            <label htmlFor="organization">Organization</label>
            <input
              id="organization"
              name="organization"
              required
              autoComplete="organization"
              value={organization}
              onChange={(event) => setOrganization(event.target.value)}
              aria-describedby="organization-hint"
            />
            <p id="organization-hint" className="hint">
              Your organization's short name (its slug), as in its sign-in address.
            </p>
          </div>
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={busy || organization.trim() === ''}>
              Sign in
            </button>
          </div>
        </form>
      </div>
    </main>
  );
}

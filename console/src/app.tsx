import { useEffect, useState, useSyncExternalStore } from 'react';
import { type Answer, ApiError, api } from './api';
import { completeSignIn, currentOrganization, currentTokens, onTokensChange } from './auth';
import { navigate, useRoute } from './router';
import { allScreens } from './screens';
import { type Me, makeSession, type Session, SessionContext } from './session';
import { Shell } from './shell';
import { SignIn } from './sign-in';
import { ErrorBanner, Loading } from './ui';

let callback: Promise<string> | undefined;

/** The whole console: callback handling, the sign-in screen, then the signed-in shell. */
export function App() {
  const route = useRoute();
  const tokens = useSyncExternalStore(onTokensChange, currentTokens);
  const [callbackError, setCallbackError] = useState<Error | undefined>(undefined);

  useEffect(() => {
    if (route.path !== '/callback') return;
    // Once per page load: the code is single-use (React may run effects twice in development).
    callback ??= completeSignIn(location.search);
    callback.then(
      (next) => navigate(next, { replace: true }),
      (reason: unknown) => setCallbackError(reason instanceof Error ? reason : new Error(String(reason))),
    );
  }, [route.path]);

  if (route.path === '/callback') {
    return callbackError ? (
      <SignIn error={callbackError} />
    ) : (
      <main className="centered">
        <Loading label="Signing you in…" />
      </main>
    );
  }
  if (!tokens) return <SignIn />;
  return <SignedIn />;
}

function SignedIn() {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);

  useEffect(() => {
    let live = true;
    (async () => {
      const [me, granted] = await Promise.all([
        api<Me>('GET', '/me'),
        api<Answer<'/me/permissions'>>('GET', '/me/permissions'),
      ]);
      let isPlatformOperator = false;
      if (granted.permissions.includes('operator:read')) {
        isPlatformOperator = await api('GET', '/operator/tenants', undefined, { query: { limit: 1 } }).then(
          () => true,
          (reason: unknown) => (reason instanceof ApiError && reason.status === 403 ? false : Promise.reject(reason)),
        );
      }
      if (live)
        setSession(
          makeSession({ me, slug: currentOrganization() ?? '', permissions: granted.permissions, isPlatformOperator }),
        );
    })().catch((reason: unknown) => live && setError(reason instanceof Error ? reason : new Error(String(reason))));
    return () => {
      live = false;
    };
  }, []);

  if (error) {
    return (
      <main className="centered">
        <ErrorBanner error={error} title="The console could not load your session." />
      </main>
    );
  }
  if (!session) {
    return (
      <main className="centered">
        <Loading label="Loading your organization…" />
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Shell screens={allScreens} />
    </SessionContext.Provider>
  );
}

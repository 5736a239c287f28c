import { useEffect, useRef } from 'react';
import { Link, useRoute } from './router';
import type { ScreenDef } from './screens';
import { useSession } from './session';
import { EmptyState, Page } from './ui';

function matches(screen: ScreenDef, path: string): boolean {
  if (screen.path.endsWith('/*')) {
    const base = screen.path.slice(0, -2);
    return path === base || path.startsWith(`${base}/`);
  }
  return screen.path === path;
}

/** The signed-in frame: skip link, header, navigation of the visible screens, the current screen. */
export function Shell(props: { screens: ScreenDef[] }) {
  const session = useSession();
  const route = useRoute();
  const visible = props.screens.filter((screen) => screen.visible(session));
  const current = visible.find((screen) => matches(screen, route.path));
  const exists = props.screens.some((screen) => matches(screen, route.path));
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(true);

  // Moving between screens puts the focus on the new screen's heading, as a page load would.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    if (firstPath.current) {
      firstPath.current = false;
      return;
    }
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [route.path]);

  const groups = new Map<string, ScreenDef[]>();
  for (const screen of visible) groups.set(screen.group, [...(groups.get(screen.group) ?? []), screen]);

  const Screen = current?.component;
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Console</span>
        <span className="org" title="Organization">
          {session.tenant.slug}
        </span>
        <span className="spacer" />
        <span className="muted role">{session.me.role}</span>
        <button type="button" className="button" onClick={session.signOut}>
          Sign out
        </button>
      </header>
      <nav className="sidenav" aria-label="Console">
        {[...groups].map(([group, screens]) => (
          <div key={group} className="nav-group">
            <h2 className="nav-heading">{group}</h2>
            <ul>
              {screens.map((screen) => (
                <li key={screen.path}>
                  <Link to={screen.path.replace(/\/\*$/, '')} current={screen === current}>
                    {screen.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main" ref={main} className="content">
        {Screen ? (
          <Screen />
        ) : (
          <Page title={exists ? 'Not available' : 'Not found'}>
            <EmptyState
              title={
                exists
                  ? 'Your role does not allow this screen. Ask an administrator of your organization.'
                  : 'There is no such screen.'
              }
            />
          </Page>
        )}
      </main>
    </div>
  );
}

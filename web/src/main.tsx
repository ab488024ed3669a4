// The dashboard: a header with the pages, and the page the URL names.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { gql, session } from './api.js';
import { MeQuery } from './documents.js';
import { Link, navigate, parseRoute, useLocation, type Route } from './router.js';
import { NotFound, PageTitle, SignInFirst } from './components/ui.js';
import { Discover } from './pages/Discover.js';
import { AgentDetail } from './pages/AgentDetail.js';
import { MyTasks } from './pages/MyTasks.js';
import { TaskPage } from './pages/TaskPage.js';
import { MyAgents, NewAgent } from './pages/MyAgents.js';
import { MyAgent } from './pages/MyAgent.js';
import { SignIn } from './pages/SignIn.js';

const PRIVATE: Route['page'][] = ['tasks', 'task', 'myAgents', 'newAgent', 'myAgent'];

function Page({ route, onSignedIn }: { route: Route; onSignedIn: (email: string) => void }) {
  if (PRIVATE.includes(route.page) && !session.get()) {
    return (
      <section>
        <PageTitle>Sign in needed</PageTitle>
        <SignInFirst what="see this page" />
      </section>
    );
  }
  switch (route.page) {
    case 'discover':
      return <Discover />;
    case 'agent':
      return <AgentDetail key={route.slug} slug={route.slug} />;
    case 'tasks':
      return <MyTasks />;
    case 'task':
      return <TaskPage key={route.id} id={route.id} />;
    case 'myAgents':
      return <MyAgents />;
    case 'newAgent':
      return <NewAgent />;
    case 'myAgent':
      return <MyAgent key={route.id} id={route.id} />;
    case 'signIn':
      return <SignIn onSignedIn={onSignedIn} />;
    default:
      return <NotFound />;
  }
}

function App() {
  const { pathname } = useLocation();
  const route = parseRoute(pathname);
  const [email, setEmail] = useState<string | null>(null);

  useEffect(() => {
    if (!session.get()) return;
    gql(MeQuery).then(
      (d) => setEmail(d.me.email),
      // A key revoked since it was pasted: forget it.
      () => {
        session.clear();
        setEmail(null);
      },
    );
  }, []);

  const signOut = () => {
    session.clear();
    setEmail(null);
    navigate('/');
  };
  const current = (page: Route['page'][]) => (page.includes(route.page) ? 'page' : undefined);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          Task marketplace
        </Link>
        <nav aria-label="Main">
          <Link href="/" aria-current={current(['discover', 'agent'])}>
            Discover
          </Link>
          <Link href="/tasks" aria-current={current(['tasks', 'task'])}>
            My tasks
          </Link>
          <Link href="/my/agents" aria-current={current(['myAgents', 'newAgent', 'myAgent'])}>
            My agents
          </Link>
          {session.get() ? (
            <>
              {email && <span className="muted who">{email}</span>}
              <button type="button" className="link" onClick={signOut}>
                Sign out
              </button>
            </>
          ) : (
            <Link href="/sign-in" aria-current={current(['signIn'])}>
              Sign in
            </Link>
          )}
        </nav>
      </header>
      <main id="main">
        <Page key={route.page} route={route} onSignedIn={setEmail} />
      </main>
      <footer className="foot">
        <a href="/docs/api">API reference</a> · <a href="/v1/openapi.json">OpenAPI document</a> · <a href="/graphql">GraphQL</a>
      </footer>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

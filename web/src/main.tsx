// The dashboard: a header with the pages, and the page the URL names.
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { Link, navigate, parseRoute, useLocation, type Route } from './router.js';
import { NotFound, PageTitle, SignInFirst, Skeleton } from './components/ui.js';
import { refreshViewer, signOut, useViewer } from './viewer.js';
import { Discover } from './pages/Discover.js';
import { AgentDetail } from './pages/AgentDetail.js';
import { MyTasks } from './pages/MyTasks.js';
import { TaskPage } from './pages/TaskPage.js';
import { MyAgents, NewAgent } from './pages/MyAgents.js';
import { MyAgent } from './pages/MyAgent.js';
import { SignIn } from './pages/SignIn.js';
import { SignUp } from './pages/SignUp.js';
import { EmailLinkSignIn } from './pages/EmailLinkSignIn.js';
import { Account } from './pages/Account.js';
import { Consent } from './pages/Consent.js';
import { Billing } from './pages/Billing.js';
import { Payouts } from './pages/Payouts.js';
import { TestModeBanner } from './payments/TestPaymentNote.js';

const PRIVATE: Route['page'][] = ['tasks', 'task', 'myAgents', 'newAgent', 'myAgent', 'account', 'consent', 'billing', 'payouts'];

function Page({ route }: { route: Route }) {
  const viewer = useViewer();
  if (PRIVATE.includes(route.page) && !viewer.loaded) return <Skeleton />;
  if (PRIVATE.includes(route.page) && !viewer.user) {
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
      return <SignIn />;
    case 'signUp':
      return <SignUp />;
    case 'emailLink':
      return <EmailLinkSignIn />;
    case 'account':
      return <Account />;
    case 'consent':
      return <Consent />;
    case 'billing':
      return <Billing />;
    case 'payouts':
      return <Payouts />;
    default:
      return <NotFound />;
  }
}

function App() {
  const { pathname } = useLocation();
  const route = parseRoute(pathname);
  const { user } = useViewer();

  useEffect(() => void refreshViewer(), []);

  const leave = async () => {
    await signOut();
    navigate('/');
  };
  const current = (page: Route['page'][]) => (page.includes(route.page) ? 'page' : undefined);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <TestModeBanner />
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
          {user ? (
            <>
              <Link href="/billing" aria-current={current(['billing', 'payouts'])}>
                Billing
              </Link>
              <Link href="/account" aria-current={current(['account'])} className="who">
                {user.email}
              </Link>
              <button type="button" className="link" onClick={() => void leave()}>
                Sign out
              </button>
            </>
          ) : (
            <>
              <Link href="/sign-in" aria-current={current(['signIn', 'emailLink'])}>
                Sign in
              </Link>
              <Link href="/sign-up" aria-current={current(['signUp'])}>
                Sign up
              </Link>
            </>
          )}
        </nav>
      </header>
      <main id="main">
        <Page key={route.page} route={route} />
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

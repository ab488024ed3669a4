// The first page after sign-up (/welcome): what a new account can do next, each a link to where it is done.
import { Link } from '../router.js';
import { PageTitle } from '../components/ui.js';
import { useViewer } from '../viewer.js';

export function Welcome() {
  const viewer = useViewer();
  const mcpUrl = `${location.origin}/mcp`;
  return (
    <section aria-labelledby="welcome">
      <PageTitle>
        <span id="welcome">Welcome{viewer.user?.name ? `, ${viewer.user.name}` : ''}</span>
      </PageTitle>
      <p className="lead">Your account is ready. What would you like to do first?</p>
      <ol className="next-steps">
        <li>
          <h2>Find an agent</h2>
          <p>Search the agents by what they can do, read their track records and send one a task.</p>
          <Link href="/" className="button">
            Browse the agents
          </Link>
        </li>
        <li>
          <h2>List your own agent</h2>
          <p>Give your web service a name and an endpoint; the marketplace sends it tasks and pays it when it delivers.</p>
          <Link href="/my/agents/new" className="button secondary">
            New agent
          </Link>
        </li>
        <li>
          <h2>Connect an MCP host</h2>
          <p>
            Paste <code>{mcpUrl}</code> into Claude, ChatGPT, VS Code or another MCP host; it asks you here which of your
            permissions it may use.
          </p>
        </li>
        <li>
          <h2>Make an API key</h2>
          <p>For scripts and the REST API: a key with only the scopes it needs, shown once.</p>
          <Link href="/account#api-keys" className="button secondary">
            API keys on your account
          </Link>
        </li>
      </ol>
    </section>
  );
}

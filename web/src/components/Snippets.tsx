// How to call an agent from code: copyable requests for REST, GraphQL, A2A and MCP, with an example input
// made from the agent's inputSchema (its defaults, examples and enum values, else a placeholder).
import { useState } from 'react';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; default?: unknown; examples?: unknown[]; enum?: unknown[]; items?: Schema; title?: string };

function example(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = example(sub, depth + 1);
      return out;
    }
    case 'array':
      return [example(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return `${schema.title ?? 'text'}…`;
    default:
      return schema.properties ? example({ ...schema, type: 'object' }, depth) : null;
  }
}

export function exampleInput(inputSchema: string | null | undefined): Record<string, unknown> {
  try {
    const value = example(inputSchema ? (JSON.parse(inputSchema) as Schema) : undefined);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function snippetsFor(agent: { id: string; slug: string; inputSchema?: string | null }, origin: string) {
  const body = { agentId: agent.id, title: 'My first task', description: 'What I need done', input: exampleInput(agent.inputSchema) };
  const rest = [
    `curl -X POST ${origin}/v1/tasks \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "Idempotency-Key: $(uuidgen)" \\`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
  const query = 'mutation Send($input: CreateTaskInput!) { createTask(input: $input) { task { id status } clientSecret } }';
  const graphql = [
    `curl -X POST ${origin}/graphql \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify({ query, variables: { input: body } }, null, 2))}`,
  ].join('\n');
  const a2a = [
    `# The agent's A2A card:`,
    `curl ${origin}/a2a/agents/${encodeURIComponent(agent.slug)}/.well-known/agent-card.json`,
    `# Any A2A client sends messages to ${origin}/a2a/agents/${encodeURIComponent(agent.slug)} with the same API key.`,
  ].join('\n');
  const mcpCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_task', arguments: body } };
  const mcp = [
    `# An MCP host's configuration (tools: search_agents, get_agent, create_task, get_task, list_my_tasks, cancel_task):`,
    JSON.stringify({ mcpServers: { marketplace: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer YOUR_API_KEY' } } } }, null, 2),
    `# The create_task tool for this agent, by hand:`,
    `curl -X POST ${origin}/mcp \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\`,
    `  -d ${shellQuote(JSON.stringify(mcpCall))}`,
  ].join('\n');
  return [
    { id: 'rest', name: 'REST', code: rest },
    { id: 'graphql', name: 'GraphQL', code: graphql },
    { id: 'a2a', name: 'A2A', code: a2a },
    { id: 'mcp', name: 'MCP', code: mcp },
  ];
}

export function Snippets({ agent }: { agent: { id: string; slug: string; inputSchema?: string | null } }) {
  const snippets = snippetsFor(agent, location.origin);
  const [current, setCurrent] = useState(snippets[0]!.id);
  const [copied, setCopied] = useState<string | null>(null);
  const shown = snippets.find((s) => s.id === current) ?? snippets[0]!;

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.code);
    } catch {
      // Without clipboard access (plain http): select the text so it can be copied by hand.
      const range = document.createRange();
      const pre = document.getElementById(`snippet-${shown.id}`);
      if (pre) {
        range.selectNodeContents(pre);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        document.execCommand('copy');
      }
    }
    setCopied(shown.id);
  }

  return (
    <div className="snippets">
      <div className="snippet-tabs" role="group" aria-label="Language">
        {snippets.map((s) => (
          <button key={s.id} type="button" className={s.id === current ? '' : 'secondary'} aria-pressed={s.id === current} onClick={() => setCurrent(s.id)}>
            {s.name}
          </button>
        ))}
        <button type="button" className="secondary copy" onClick={() => void copy()}>
          {copied === shown.id ? 'Copied' : `Copy ${shown.name}`}
        </button>
      </div>
      <pre className="json snippet" id={`snippet-${shown.id}`} tabIndex={0} aria-label={`${shown.name} example`}>
        <code>{shown.code}</code>
      </pre>
    </div>
  );
}

// GET /docs/api: the API reference as one HTML page, rendered on the server from the same OpenAPI document
// as /v1/openapi.json. It has no script and loads nothing from anywhere (its styles are in the page), so
// it reads the same offline, behind a firewall, or with scripts turned off.
type Json = Record<string, unknown>;
type Schema = Json & { $ref?: string; type?: string | string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; enum?: unknown[]; properties?: Record<string, Schema>; required?: string[] };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const CONSTRAINTS = ['format', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern', 'default'];

const escape = (text: unknown) =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const refName = (ref: string) => ref.split('/').at(-1)!;
const anchor = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
export const operationAnchor = (method: string, path: string) => `op-${method}-${anchor(path)}`;

// A schema in a few words: `string`, `array of Task`, `"low" | "normal"`, with links to named schemas.
function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return `<a href="#schema-${anchor(name)}">${escape(name)}</a>`;
  }
  if (schema.enum) return schema.enum.map((v) => `<code>${escape(JSON.stringify(v))}</code>`).join(' | ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `array of ${typeOf(schema.items)}`;
  return escape(type ?? 'any');
}

function constraints(schema: Schema): string {
  const parts = CONSTRAINTS.filter((key) => schema[key] !== undefined).map((key) => `${key} ${escape(JSON.stringify(schema[key]))}`);
  return parts.length ? ` <span class="muted">(${parts.join(', ')})</span>` : '';
}

// The fields of an object schema as a table; other schemas as their type.
function fields(schema: Schema | undefined): string {
  if (!schema?.properties) return `<p>${typeOf(schema)}</p>`;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties).map(
    ([name, field]) =>
      `<tr><td><code>${escape(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(field)}${constraints(field)}</td><td>${escape(field.description)}</td></tr>`,
  );
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function jsonSchemaOf(content: unknown): Schema | undefined {
  return (content as { 'application/json'?: { schema?: Schema } } | undefined)?.['application/json']?.schema;
}

function operation(method: string, path: string, op: Json, responses: Record<string, Json>): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const paramRows = params.map(
    (p) =>
      `<tr><td><code>${escape(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${escape(p.in)}</td><td>${typeOf(p.schema as Schema)}${constraints((p.schema as Schema) ?? {})}</td><td>${escape(p.description)}</td></tr>`,
  );
  const body = op.requestBody as Json | undefined;
  const answers = Object.entries((op.responses as Record<string, Json>) ?? {}).map(([status, answer]) => {
    const resolved = typeof answer.$ref === 'string' ? (responses[refName(answer.$ref)] ?? answer) : answer;
    const schema = jsonSchemaOf(resolved.content);
    return `<tr><td>${escape(status)}</td><td>${escape(resolved.description)}</td><td>${schema ? typeOf(schema) : ''}</td></tr>`;
  });
  const success = Object.entries((op.responses as Record<string, Json>) ?? {}).find(([status]) => status.startsWith('2'));
  const successSchema = success ? jsonSchemaOf(success[1].content) : undefined;
  return `<section class="op" id="${operationAnchor(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary)}${Array.isArray(op.security) && op.security.length === 0 ? ' <span class="tag">public</span>' : ' <span class="tag">bearer token</span>'}</p>
${paramRows.length ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${paramRows.join('')}</tbody></table>` : ''}
${body ? `<h4>Body${body.required ? '' : ' (optional)'}</h4>${fields(jsonSchemaOf(body.content))}` : ''}
${successSchema?.properties ? `<h4>Answer ${escape(success![0])}</h4>${fields(successSchema)}` : ''}
<details><summary>Statuses</summary><table><thead><tr><th>Status</th><th>When</th><th>Body</th></tr></thead><tbody>${answers.join('')}</tbody></table></details>
</section>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#fff}
main{max-width:70rem;margin:0 auto;padding:1rem 1.25rem 4rem}
h1{margin:.5rem 0}h2{margin-top:2.5rem;border-bottom:1px solid #d8dce4}h3{margin:.25rem 0;font-size:1.05rem}
code{font:13px ui-monospace,monospace;overflow-wrap:anywhere}a{color:#2450b2}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:14px}th,td{text-align:left;border-bottom:1px solid #e6e8ee;padding:.3rem .5rem;vertical-align:top}
.op{border:1px solid #d8dce4;border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;background:#4b5563;font-size:13px}
.get{background:#1f6f43}.post{background:#2450b2}.put,.patch{background:#8a5a00}.delete{background:#a32020}
.tag{font-size:12px;border:1px solid #c5cad6;border-radius:9px;padding:0 .45rem;color:#4b5563}
.req{font-size:11px;color:#a32020}.muted{color:#5b6474}nav ul{columns:2 18rem;padding-left:1.1rem}
@media (prefers-color-scheme:dark){body{background:#14171f;color:#e4e7ee}a{color:#8fb0ff}.op,th,td{border-color:#343a48}.muted,.tag{color:#aab1c0}}
`;

/** The page for an OpenAPI 3.1 document as built by buildOpenApiDocument. */
export function renderReferencePage(document: Json): string {
  const info = (document.info as Json) ?? {};
  const paths = (document.paths as Record<string, Record<string, Json>>) ?? {};
  const components = (document.components as { schemas?: Record<string, Schema>; responses?: Record<string, Json> }) ?? {};
  const byTag = new Map<string, { method: string; path: string; op: Json }[]>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = ((op.tags as string[] | undefined)?.[0] ?? 'other').toString();
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const groups = [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b));
  const nav = groups
    .map(([tag, ops]) => `<li><a href="#tag-${anchor(tag)}">${escape(tag)}</a> (${ops.length})</li>`)
    .join('');
  const sections = groups
    .map(([tag, ops]) => `<h2 id="tag-${anchor(tag)}">${escape(tag)}</h2>${ops.map((o) => operation(o.method, o.path, o.op, components.responses ?? {})).join('\n')}`)
    .join('\n');
  const schemas = Object.entries(components.schemas ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, schema]) => `<section id="schema-${anchor(name)}"><h3>${escape(name)}</h3>${schema.description ? `<p>${escape(schema.description)}</p>` : ''}${fields(schema)}</section>`)
    .join('\n');
  const servers = (document.servers as { url: string }[] | undefined)?.map((s) => `<code>${escape(s.url)}</code>`).join(', ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(info.title)} reference</title><style>${STYLE}</style></head>
<body><main>
<p><a href="/">Dashboard</a> · <a href="/v1/openapi.json">OpenAPI document (JSON)</a></p>
<h1>${escape(info.title)}</h1>
<p>${escape(info.description)}</p>
${servers ? `<p>Base URL: ${servers}. Authenticated operations take <code>Authorization: Bearer &lt;API key or access token&gt;</code>; errors answer <code>{ "error": { "code", "message", "field"? } }</code>.</p>` : ''}
<nav aria-label="Groups"><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}
</main></body></html>
`;
}

// Nothing but the page's own inline styles: no script, no fetch, no other origin.
export const REFERENCE_PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

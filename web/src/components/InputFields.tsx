// The fields an agent's task form asks for, read-only: their names, what kind of value each takes and
// whether it is required. Shown to visitors who are not signed in, instead of a form they cannot send.
import { inputSchemaOf } from '../task-schema.js';

interface Property {
  title?: string;
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  format?: string;
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'number',
  integer: 'whole number',
  boolean: 'yes or no',
  object: 'group of fields',
  array: 'list',
};

function kindOf(p: Property): string {
  if (p.enum) return `one of: ${p.enum.map(String).join(', ')}`;
  const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
  const kind = KINDS[type ?? ''] ?? 'any value';
  return p.format ? `${kind} (${p.format})` : kind;
}

export function InputFields({ inputSchema }: { inputSchema: string | null | undefined }) {
  const { input } = inputSchemaOf(inputSchema);
  const properties = Object.entries((input.properties ?? {}) as Record<string, Property>);
  const required = new Set((input.required as string[] | undefined) ?? []);
  if (properties.length === 0) return <p className="muted">A title and a description; this agent asks for no structured input.</p>;
  return (
    <ul className="field-list" aria-label="Fields of the task form">
      {properties.map(([name, p]) => (
        <li key={name}>
          <strong>{p.title ?? name}</strong> <span className="muted">· {kindOf(p)}</span>
          <span className="muted"> · </span>
          {required.has(name) ? <span className="badge">required</span> : <span className="muted">optional</span>}
          {p.description && <div className="muted">{p.description}</div>}
        </li>
      ))}
    </ul>
  );
}

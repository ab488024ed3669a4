// Creates an agent or edits every updatable field of one, a section at a time on the owner console
// (`groups`). The service's validation message appears beside the field it names.
import { useState, type FormEvent } from 'react';
import { gql, ApiError, errorText } from '../api.js';
import { CreateAgentMutation, UpdateAgentMutation } from '../documents.js';
import type { AgentStatus, DashOwnAgentFragment } from '../generated/gql/graphql.js';
import { withFieldTitle } from '../plain-errors.js';
import { cents, dollars } from '../format.js';
import { checkSchema, SchemaEditor } from '../components/SchemaEditor.js';

// count: an optional whole number; empty means no limit.
type Kind = 'text' | 'textarea' | 'url' | 'list' | 'cents' | 'count' | 'status' | 'json';

// The owner console's sections that hold fields.
export type FieldGroup = 'profile' | 'endpoint' | 'limits' | 'input';

const FIELDS: Array<{ name: string; label: string; kind: Kind; group: FieldGroup; hint?: string; required?: boolean }> = [
  { name: 'name', label: 'Name', kind: 'text', group: 'profile', required: true },
  { name: 'endpoint', label: 'Endpoint URL', kind: 'url', group: 'endpoint', required: true, hint: 'Where tasks are delivered (POST).' },
  { name: 'description', label: 'Description', kind: 'text', group: 'profile' },
  { name: 'longDescription', label: 'Long description', kind: 'textarea', group: 'profile', hint: 'Markdown: **bold**, lists, [links](https://…).' },
  { name: 'capabilities', label: 'Capabilities', kind: 'list', group: 'profile', hint: 'Comma-separated.' },
  { name: 'protocols', label: 'Protocols', kind: 'list', group: 'profile', hint: 'Comma-separated, e.g. http.' },
  { name: 'categories', label: 'Categories', kind: 'list', group: 'profile', hint: 'Comma-separated.' },
  { name: 'tags', label: 'Tags', kind: 'list', group: 'profile', hint: 'Comma-separated.' },
  // Typed in dollars and cents; the API takes whole cents.
  { name: 'priceCents', label: 'Price per task (US dollars)', kind: 'cents', group: 'profile', hint: 'For example 2.50. 0 makes the agent free.' },
  { name: 'status', label: 'Status', kind: 'status', group: 'profile' },
  { name: 'maxConcurrentTasks', label: 'Most tasks at once', kind: 'count', group: 'limits', hint: 'Routing prefers agents with room. Empty: no limit.' },
  { name: 'maxDeliveriesPerSecond', label: 'Most deliveries per second', kind: 'count', group: 'limits', hint: 'Deliveries over it wait their turn. Empty: no limit.' },
  { name: 'docsUrl', label: 'Documentation URL', kind: 'url', group: 'profile' },
  { name: 'manifestUrl', label: 'Manifest URL', kind: 'url', group: 'endpoint' },
  { name: 'twitterUrl', label: 'Twitter URL', kind: 'url', group: 'profile' },
  { name: 'authType', label: 'Authentication type', kind: 'text', group: 'endpoint' },
  { name: 'version', label: 'Version', kind: 'text', group: 'profile' },
  { name: 'inputSchema', label: 'Input schema (JSON Schema)', kind: 'json', group: 'input', hint: 'Requesters fill a form made from it.' },
];

type Values = Record<string, string>;

// The stored schema is one line of JSON; the editor shows it indented.
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function valuesOf(agent: DashOwnAgentFragment | null): Values {
  const values: Values = {};
  for (const field of FIELDS) {
    const value = agent ? (agent as unknown as Record<string, unknown>)[field.name] : undefined;
    if (Array.isArray(value)) values[field.name] = value.join(', ');
    else if (field.kind === 'json' && typeof value === 'string') values[field.name] = pretty(value);
    else if (field.kind === 'cents') values[field.name] = dollars(typeof value === 'number' ? value : 0);
    else values[field.name] = value == null ? (field.kind === 'status' ? 'active' : '') : String(value);
  }
  return values;
}

// The input the API takes: lists split, numbers parsed; on create empty optional fields are left out,
// on edit only changed fields are sent (an emptied one as null, or "" for descriptions).
function inputOf(values: Values, before: Values | null, fields = FIELDS): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name]!.trim();
    if (before && raw === before[field.name]!.trim()) continue;
    if (field.kind === 'list') input[field.name] = raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [];
    else if (field.kind === 'cents') input[field.name] = raw === '' ? 0 : cents(Number(raw));
    else if (field.kind === 'count') {
      if (raw !== '') input[field.name] = Number(raw);
      else if (before) input[field.name] = null;
    }
    else if (field.kind === 'status') input[field.name] = raw as AgentStatus;
    else if (raw !== '' || field.required) input[field.name] = raw;
    else if (before) input[field.name] = field.name === 'description' || field.name === 'longDescription' ? '' : null;
  }
  return input;
}

export function AgentEditor({
  agent,
  onSaved,
  groups,
}: {
  agent: DashOwnAgentFragment | null;
  onSaved: (agent: DashOwnAgentFragment) => void;
  // The sections shown and saved by this form; all of them when creating.
  groups?: FieldGroup[];
}) {
  const fields = groups ? FIELDS.filter((f) => groups.includes(f.group)) : FIELDS;
  const [values, setValues] = useState<Values>(() => valuesOf(agent));
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFieldError(null);
    setError(null);
    setSaved(false);
    const schemaProblem = fields.some((f) => f.name === 'inputSchema') ? checkSchema(values.inputSchema ?? '') : null;
    if (schemaProblem) {
      setFieldError({ field: 'inputSchema', message: schemaProblem });
      setBusy(false);
      document.getElementById('agent-inputSchema')?.focus();
      return;
    }
    try {
      const input = inputOf(values, agent ? valuesOf(agent) : null, fields);
      const result = agent
        ? (await gql(UpdateAgentMutation, { id: agent.id, input })).updateAgent
        : (await gql(CreateAgentMutation, { input: input as never })).createAgent;
      setValues(valuesOf(result));
      setSaved(true);
      onSaved(result);
    } catch (e) {
      // The API names the field at fault (sometimes as a path such as input.endpoint).
      const field = e instanceof ApiError && e.field ? e.field.split('.').pop()! : null;
      const known = field ? fields.find((f) => f.name === field) : undefined;
      if (field && known) {
        setFieldError({ field, message: withFieldTitle(known.label, e instanceof Error ? e.message : String(e)) });
        document.getElementById(`agent-${field}`)?.focus();
      } else setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="agent-form" onSubmit={(e) => void save(e)} noValidate>
      {fields.map((field) => {
        const id = `agent-${field.name}`;
        const invalid = fieldError?.field === field.name;
        const describedBy = [field.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
        const common = {
          id,
          name: field.name,
          value: values[field.name],
          'aria-invalid': invalid || undefined,
          'aria-describedby': describedBy,
          required: field.required,
          onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field.name]: e.target.value })),
        };
        return (
          <div key={field.name} className={`field${invalid ? ' has-error' : ''}${field.kind === 'textarea' || field.kind === 'json' ? ' full' : ''}`}>
            <label htmlFor={id}>
              {field.label}
              {field.required && <span aria-hidden="true"> *</span>}
            </label>
            {field.kind === 'json' ? (
              <SchemaEditor id={id} value={values[field.name] ?? ''} describedBy={describedBy} invalid={invalid} onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))} />
            ) : field.kind === 'textarea' ? (
              <textarea {...common} rows={4} />
            ) : field.kind === 'status' ? (
              <select {...common}>
                <option value="active">active</option>
                <option value="inactive">inactive</option>
                <option value="deprecated">deprecated</option>
              </select>
            ) : (
              <input
                {...common}
                type={field.kind === 'url' ? 'url' : field.kind === 'cents' || field.kind === 'count' ? 'number' : 'text'}
                min={field.kind === 'cents' ? 0 : field.kind === 'count' ? 1 : undefined}
                step={field.kind === 'cents' ? 0.01 : undefined}
                inputMode={field.kind === 'cents' ? 'decimal' : undefined}
              />
            )}
            {field.hint && (
              <small id={`${id}-hint`} className="hint">
                {field.hint}
              </small>
            )}
            {invalid && (
              <p id={`${id}-error`} className="field-error" role="alert">
                {fieldError.message}
              </p>
            )}
          </div>
        );
      })}
      <div className="form-end full">
        <button type="submit" disabled={busy}>
          {agent ? 'Save changes' : 'Create agent'}
        </button>
        {saved && (
          <span role="status" className="ok">
            Saved.
          </span>
        )}
      </div>
      <p role="alert" className="error full" hidden={!error}>
        {error}
      </p>
    </form>
  );
}

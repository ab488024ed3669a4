// The owner's editor for an agent's inputSchema: JSON checked as it is typed (syntax, then whether it
// is a JSON Schema for an object), and beside it the form requesters will see, updated live.
import { useMemo } from 'react';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { InputFormPreview } from '../pages/TaskForm.js';

const validator = customizeValidator();

export function checkSchema(text: string): string | null {
  if (!text.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return `Input schema is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'Input schema must be a JSON object, such as {"type": "object", "properties": {…}}.';
  const schema = parsed as { type?: unknown; properties?: unknown };
  if (schema.type !== undefined && schema.type !== 'object') return 'Input schema must describe an object: its "type" must be "object".';
  if (schema.properties !== undefined && (typeof schema.properties !== 'object' || schema.properties === null || Array.isArray(schema.properties))) {
    return 'Input schema "properties" must be an object naming each field.';
  }
  if (!validator.ajv.validateSchema(parsed as object)) {
    const first = validator.ajv.errors?.[0];
    return `Input schema is not a valid JSON Schema: ${first ? `${first.instancePath || 'the root'} ${first.message}` : 'unknown problem'}.`;
  }
  return null;
}

export function SchemaEditor(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const problem = useMemo(() => checkSchema(props.value), [props.value]);
  const statusId = `${props.id}-check`;
  const format = () => {
    try {
      props.onChange(JSON.stringify(JSON.parse(props.value), null, 2));
    } catch {
      // Not JSON yet: nothing to format.
    }
  };
  return (
    <div className="schema-editor">
      <div>
        <textarea
          id={props.id}
          name="inputSchema"
          className="mono"
          rows={14}
          spellCheck={false}
          value={props.value}
          aria-invalid={Boolean(problem) || props.invalid || undefined}
          aria-describedby={[props.describedBy, statusId].filter(Boolean).join(' ')}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <p id={statusId} className={`schema-status ${problem ? 'field-error' : 'ok'}`} aria-live="polite">
          {problem ?? (props.value.trim() ? 'Valid JSON Schema.' : 'No schema: requesters send any JSON object.')}
        </p>
        <button type="button" className="secondary" onClick={format} disabled={Boolean(problem) || !props.value.trim()}>
          Format JSON
        </button>
      </div>
      <div>
        <p className="preview-title">What requesters will see</p>
        {problem ? <p className="note">The preview returns once the schema is valid.</p> : <InputFormPreview key={props.value} inputSchema={props.value} idPrefix="schema-preview" />}
      </div>
    </div>
  );
}

// Sends a task to one agent. The form comes from the agent's inputSchema (react-jsonschema-form with
// the ajv8 validator, its patterns on a linear-time engine); the request carries an Idempotency-Key that stays the same until it succeeds,
// so a retry after a lost answer creates nothing twice.
import { useMemo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { rest, errorText } from '../api.js';
import { navigate } from '../router.js';
import { ErrorNote } from '../components/ui.js';
import { fileRefsIn, fileWidgets } from '../components/FileField.js';
import type { RJSFSchema } from '@rjsf/utils';
import { inputSchemaOf, taskFormSchema, taskFormUi, type TaskFormData } from '../task-schema.js';
import { formValidator as validator } from '../form-validator.js';
import { plainErrors } from '../plain-errors.js';


// Works outside secure contexts too (crypto.randomUUID does not).
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

interface Created {
  data: { id: string; status: string };
}

export function TaskForm({ agent }: { agent: { id: string; priceCents: number; inputSchema?: string | null } }) {
  const schema = useMemo(() => taskFormSchema(agent), [agent]);
  const [formData, setFormData] = useState<TaskFormData>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotencyKey = useRef(newIdempotencyKey());

  async function submit(event: IChangeEvent) {
    const data = event.formData as TaskFormData | undefined;
    if (!data) return;
    setBusy(true);
    setError(null);
    try {
      const created = await rest<Created>(
        'POST',
        '/v1/tasks',
        {
          agentId: agent.id,
          title: data.title,
          description: data.description,
          priority: data.priority,
          maxPriceCents: data.maxPrice === undefined ? undefined : Math.round(data.maxPrice * 100),
          expiresInMinutes: data.expiresInMinutes,
          input: fileRefsIn(data.input ?? {}, schema.properties!.input as RJSFSchema),
        },
        { 'idempotency-key': idempotencyKey.current },
      );
      idempotencyKey.current = newIdempotencyKey();
      // A card hold that waits for the requester is confirmed on the task page (with the processor's client
      // library, or the simulated processor's test form), where a decline can be tried again.
      const task = created.body.data;
      navigate(`/tasks/${encodeURIComponent(task.id)}`);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <div className="task-form">
      <Form
        schema={schema}
        uiSchema={{ ...taskFormUi, input: fileWidgets(schema.properties!.input as RJSFSchema) }}
        validator={validator}
        formData={formData}
        onChange={(e) => setFormData((e.formData ?? {}) as TaskFormData)}
        onSubmit={(e) => void submit(e)}
        showErrorList={false}
        transformErrors={plainErrors}
        noHtml5Validate
        disabled={busy}
        idPrefix="task"
      />
      <ErrorNote error={error} />
    </div>
  );
}

// The fields of an agent's input form, as requesters will see them, without sending anything: on the
// agent page before sign-in, and beside the owner's schema editor as a live preview.
export function InputFormPreview({ inputSchema, idPrefix = 'preview' }: { inputSchema: string | null | undefined; idPrefix?: string }) {
  const schema = useMemo(() => inputSchemaOf(inputSchema).input, [inputSchema]);
  const [formData, setFormData] = useState<unknown>(undefined);
  return (
    <div className="task-form preview">
      <Form
        schema={schema}
        validator={validator}
        formData={formData}
        onChange={(e) => setFormData(e.formData)}
        onSubmit={() => {}}
        showErrorList={false}
        transformErrors={plainErrors}
        noHtml5Validate
        liveValidate={formData !== undefined}
        idPrefix={idPrefix}
      >
        <></>
      </Form>
    </div>
  );
}

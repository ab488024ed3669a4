// The moves between requester and agent owner on a task page: answering an input request with a form
// built from its schema, approving or rejecting a delivered result, and a dispute's progress with the
// owner's refund or contest.
import { When } from '../components/When.js';
import { useMemo, useState } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { gql, errorText } from '../api.js';
import { ApproveTaskMutation, ContestTaskMutation, ProvideTaskInputMutation, RefundTaskMutation, RejectTaskMutation } from '../documents.js';
import type { DashTaskFragment } from '../generated/gql/graphql.js';
import { formValidator as validator } from '../form-validator.js';
import { plainErrors } from '../plain-errors.js';
import { ErrorNote } from '../components/ui.js';


// Without a schema the agent takes any answer: one text field.
const FREE_ANSWER: RJSFSchema = { type: 'object', required: ['answer'], properties: { answer: { type: 'string', title: 'Your answer', minLength: 1 } } };

type Update = (task: DashTaskFragment) => void;

function useMove(onChange: Update) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(move: () => Promise<DashTaskFragment>) {
    setBusy(true);
    setError(null);
    try {
      onChange(await move());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, run };
}

export function InputRequest({ task, canAnswer, onChange }: { task: DashTaskFragment; canAnswer: boolean; onChange: Update }) {
  const request = (task.inputRequest ?? {}) as { message?: string; inputSchema?: RJSFSchema };
  const schema = useMemo(() => request.inputSchema ?? FREE_ANSWER, [request.inputSchema]);
  const { error, busy, run } = useMove(onChange);
  const submit = (event: IChangeEvent) =>
    void run(async () => (await gql(ProvideTaskInputMutation, { id: task.id, input: event.formData ?? {} })).provideTaskInput);
  return (
    <section aria-labelledby="input-request" className="callout">
      <h2 id="input-request">The agent needs more input</h2>
      <p className="agent-message">{request.message}</p>
      {canAnswer ? (
        <Form schema={schema} validator={validator} onSubmit={submit} disabled={busy} showErrorList={false} transformErrors={plainErrors}>
          <button type="submit" disabled={busy}>
            Send answer
          </button>
        </Form>
      ) : (
        <p className="muted">Waiting for the requester's answer (round {task.inputRounds} of at most 10).</p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

export function Review({ task, onChange }: { task: DashTaskFragment; onChange: Update }) {
  const [reason, setReason] = useState('');
  const { error, busy, run } = useMove(onChange);
  return (
    <section aria-labelledby="review" className="callout">
      <h2 id="review">Review the result</h2>
      <p>
        The payment stays held until you decide. Without an answer the result is approved <When at={task.reviewEndsAt} />.
      </p>
      <button type="button" disabled={busy} onClick={() => void run(async () => (await gql(ApproveTaskMutation, { id: task.id })).approveTask)}>
        Approve and pay
      </button>
      <div className="stacked-form">
        <label htmlFor="reject-reason">Reason for rejecting</label>
        <textarea id="reject-reason" maxLength={1024} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => void run(async () => (await gql(RejectTaskMutation, { id: task.id, reason })).rejectTask)}
        >
          Reject result
        </button>
      </div>
      <ErrorNote error={error} />
    </section>
  );
}

export function Dispute({ task, isOwner, onChange }: { task: DashTaskFragment; isOwner: boolean; onChange: Update }) {
  const [statement, setStatement] = useState('');
  const { error, busy, run } = useMove(onChange);
  const open = task.status === 'disputed';
  const contested = Boolean(task.disputeContestedAt);
  return (
    <section aria-labelledby="dispute" className="callout">
      <h2 id="dispute">Dispute</h2>
      <ol className="dispute-steps">
        <li>Rejected by the requester: {task.disputeReason}</li>
        {contested && (
          <li>
            Contested by the agent's owner <When at={task.disputeContestedAt} />: {task.disputeStatement}
          </li>
        )}
        {open && !contested && <li>The agent's owner answers by <When at={task.disputeAnswerBy} />, or the payment is refunded.</li>}
        {open && contested && <li>An operator settles the dispute.</li>}
        {task.status === 'refunded' && <li>Refunded: the payment was released.</li>}
        {task.status === 'completed' && <li>Settled for the agent: the payment was taken ({task.approvedBy}).</li>}
      </ol>
      {isOwner && open && !contested && (
        <div className="stacked-form">
          <button type="button" disabled={busy} onClick={() => void run(async () => (await gql(RefundTaskMutation, { id: task.id })).refundTask)}>
            Refund the requester
          </button>
          <label htmlFor="contest-statement">Why the result stands</label>
          <textarea id="contest-statement" maxLength={4000} rows={3} value={statement} onChange={(e) => setStatement(e.target.value)} />
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(async () => (await gql(ContestTaskMutation, { id: task.id, statement })).contestTask)}
          >
            Contest the dispute
          </button>
        </div>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

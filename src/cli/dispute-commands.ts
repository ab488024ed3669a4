// Settling disputes (operators):
//   npm run --silent cli -- dispute list [--json]
//   npm run --silent cli -- dispute resolve --task TASK_ID --outcome refund|pay --note "why" [--json]
import type { CliCommand } from './command.js';
import { parseOrInvalid } from '../services/validation.js';
import { disputeResolution } from '../services/task-input.js';

export const disputeCommands: CliCommand[] = [
  {
    words: 'dispute list',
    usage: 'dispute list [--json]',
    options: {},
    async run(services) {
      const disputes = await services.tasks.listDisputes();
      const line = (d: (typeof disputes)[number]) =>
        `${d.id}  ${d.disputeContestedAt ? 'contested' : `owner answers by ${d.disputeAnswerBy?.toISOString() ?? '-'}`}  reason: ${d.disputeReason ?? ''}` +
        (d.disputeStatement ? `  owner: ${d.disputeStatement}` : '');
      return { json: disputes, text: disputes.length ? disputes.map(line).join('\n') : 'no open disputes' };
    },
  },
  {
    words: 'dispute resolve',
    usage: 'dispute resolve --task TASK_ID --outcome refund|pay --note "why"',
    options: { task: { type: 'string' }, outcome: { type: 'string' }, note: { type: 'string' } },
    required: ['task', 'outcome', 'note'],
    async run(services, v) {
      const { task, outcome, note } = parseOrInvalid(disputeResolution, { task: v.task, outcome: v.outcome, note: v.note });
      const settled = await services.tasks.resolveDispute(task, outcome, note);
      return {
        json: { id: settled.id, status: settled.status, approvedBy: settled.approvedBy },
        text: `task ${settled.id} is ${settled.status} (${outcome === 'pay' ? 'the agent is paid' : 'the requester is refunded'})`,
      };
    },
  },
];

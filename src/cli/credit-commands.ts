// Administration commands for credits:
//   npm run --silent cli -- credits grant --user U --agent A --count N --json
import type { CliCommand } from './command.js';
import { invalid } from '../errors.js';

export const creditCommands: CliCommand[] = [
  {
    words: 'credits grant',
    usage: 'credits grant --user USER_ID --agent AGENT_ID --count N [--json]',
    options: { user: { type: 'string' }, agent: { type: 'string' }, count: { type: 'string' } },
    async run(services, v) {
      if (typeof v.user !== 'string') throw invalid('user', '--user is required');
      if (typeof v.agent !== 'string') throw invalid('agent', '--agent is required');
      if (typeof v.count !== 'string' || !/^\d+$/.test(v.count)) throw invalid('count', '--count must be a positive whole number');
      const granted = await services.credits.grant({ userId: v.user, agentId: v.agent, count: Number(v.count) });
      return {
        json: { ...granted, granted: Number(v.count) },
        text: `granted ${v.count} credit(s) for agent ${granted.agentId} to user ${granted.userId}; balance ${granted.balance}`,
      };
    },
  },
];

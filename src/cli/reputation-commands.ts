// Administration of reputation:
//   npm run --silent cli -- agent verify AGENT_ID [--revoke] [--json]   (or --agent AGENT_ID)
import type { CliCommand } from './command.js';
import { invalid } from '../errors.js';

export const reputationCommands: CliCommand[] = [
  {
    words: 'agent verify',
    usage: 'agent verify AGENT_ID [--revoke] [--json]',
    options: { agent: { type: 'string' }, revoke: { type: 'boolean' } },
    required: ['agent'],
    positional: 'agent',
    async run(services, v) {
      if (typeof v.agent !== 'string') throw invalid('agent', '--agent is required');
      const agent = await services.reputation.setVerified(v.agent, v.revoke !== true);
      return {
        json: { id: agent.id, verified: agent.verified, trustScore: agent.trustScore, trustTier: agent.trustTier },
        text: `agent ${agent.id} is ${agent.verified ? 'verified' : 'not verified'}; trust ${agent.trustScore} (${agent.trustTier})`,
      };
    },
  },
];

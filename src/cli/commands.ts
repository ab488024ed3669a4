// Commands contributed by the domains (credits, agents, search, disputes); each is a CliCommand.
import type { CliCommand } from './command.js';
import { creditCommands } from './credit-commands.js';
import { reputationCommands } from './reputation-commands.js';
import { searchCommands } from './search-commands.js';
import { disputeCommands } from './dispute-commands.js';

export const commands: CliCommand[] = [...creditCommands, ...reputationCommands, ...searchCommands, ...disputeCommands];

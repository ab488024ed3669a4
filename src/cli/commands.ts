// Commands contributed by the domains (credits, agents, search); each is a CliCommand.
import type { CliCommand } from '../cli.js';

export const commands: CliCommand[] = [];

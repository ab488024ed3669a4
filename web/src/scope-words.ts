// What each scope lets a key or an app do, in the words the account and consent pages show.
export const scopeWords: Record<string, string> = {
  'tasks:read': 'See your tasks and follow their updates',
  'tasks:write': 'Create, answer and change tasks',
  'tasks:work': 'Take tasks for your pulling agents and answer them (worker mode)',
  'agents:read': 'See your agents, their deliveries and notices',
  'agents:write': 'Create, change and delete your agents',
  billing: 'See your card and credits, buy credits, set up payouts',
  account: 'Manage your API keys and connected apps',
};

export const allScopes = Object.keys(scopeWords);

// The import rules of src/ (docs/architecture.md): no cycles, and every import runs down the layers.
// `npm run check:imports` checks them; CI runs it after lint.
//
// A layer may import its own files and the layers below it, never one above. The layers do not overlap
// (a file that sits in a folder of another layer is named with a lookahead), from the top:
const LAYERS = [
  // The process: start-up, the HTTP app, the CLI's start, and the composition root that wires the services.
  { name: 'entry', path: ['^src/(main|app|cli|composition)\\.ts$', '^src/cli/run\\.ts$'] },
  // The ways in: REST, GraphQL, A2A, MCP, the HTTP routes (http/, sign-in's in http/routes/), the CLI's
  // commands, the job worker. Each takes the services (services/index.ts) and calls them.
  {
    name: 'transports',
    path: ['^src/(rest|graphql|a2a|mcp|http|schema|worker)/', '^src/cli/(?!run\\.ts$)'],
  },
  // The rules: services as small functions over a context (accounts, sign-in and turning a credential
  // into a viewer among them), reputation's figures.
  { name: 'services', path: ['^src/(services|reputation)/'] },
  // The ports and machinery the rules use: outgoing HTTP, payment providers, search engines, file
  // storage, mail, live events, metrics, job specs, and the dependencies' bundle.
  {
    name: 'adapters',
    path: [
      '^src/(search|files|mail|events|metrics|payments|delivery)/',
      '^src/jobs/(?!spec\\.ts$|specs/)',
      '^src/deps\\.ts$',
    ],
  },
  // Every SQL statement of an aggregate.
  { name: 'stores', path: ['^src/stores/'] },
  // Connections, transactions, migrations, the embedded database, the generated types.
  { name: 'db', path: ['^src/db/', '^src/generated/'] },
  // What every layer may use: the lifecycle, errors, ids, settings, the logger, crypto, credentials' parts,
  // and the jobs' declarations (a name and a payload schema: a store queues them in its statements).
  {
    name: 'base',
    path: ['^src/(lifecycle|crypto)/', '^src/jobs/(spec\\.ts$|specs/)', '^src/auth/', '^src/(errors|ids|logger|config|load-package|project-root|request-context)\\.ts$'],
  },
];

const upward = LAYERS.slice(1).map((layer, i) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} imports only its own layer and those below it: not ${LAYERS.slice(0, i + 1).map((l) => l.name).join(', ')}`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(0, i + 1).flatMap((l) => l.path) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other (through any number of steps, type imports included) cannot be understood or changed alone',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'in-a-layer',
      comment: 'Every file of src/ belongs to a layer of this file: a new folder is placed here first',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERS.flatMap((l) => l.path) },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/generated/', '\\.test\\.ts$'] },
    // Type-only imports are dependencies too: a layer that names another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};

/**
 * The layers of src/, enforced (`npm run depcheck`, part of `npm run lint`). Top to bottom:
 *
 *   cli.ts (the binary) → cli/, mcp/ (surfaces) → client/ → api/ → sys/ → leaves
 *   daemon/ → services: inject/ → agent/ → dream/ → memory/ → redact/ ; workflows/ → tasks/ ; llm/ ; integrate/ → api/, sys/ → leaves
 *
 * inject/ is where the two halves meet at the agent: it reads memory through memory/index.ts and a
 * task's output through tasks/output.ts.
 *
 * Leaves are the root modules that import nothing of the project's folders: errors, paths, project,
 * clock, version, log, config. An agent run is a client of the daemon too (it runs as a task and
 * talks to it over the socket), so agent/ may use client/; no other service may.
 */
const LEAVES = '^src/(errors|paths|project|clock|version|log|config)[.]ts$';
/**
 * memory/'s floors, bottom up: a part may import the parts of the floors below its own, never one
 * beside it or above. A statement goes up them: transcripts / nlp → candidates → rank → extract →
 * ingest, and store → recall.
 */
const MEMORY_FLOORS = [
  { parts: ['transcripts', 'nlp', 'events', 'sessions'], why: 'the ground: what was said, how its language reads, the session registry' },
  { parts: ['store'], why: "the memories and a statement's identity (slots, merge), which every later step compares against" },
  { parts: ['candidates', 'episodic', 'digest', 'evidence'], why: 'what is read from one session: statements, episodes, its digest, what a memory names' },
  { parts: ['rank'], why: 'the ranker scores candidates and turns the kept ones into proposals' },
  { parts: ['extract', 'recall'], why: 'extraction chooses among ranked proposals; recall ranks the store for a block' },
  { parts: ['state'], why: "the agent's record, built from the digest's reading and shown within recall's budget" },
  { parts: ['ingest'], why: 'one transcript through every step below it' },
  { parts: ['browse'], why: 'listing, edits and provenance, over the store, the episodes and the session registry' },
  { parts: ['service'], why: 'the service: the store, the indexes and the ingest queue, started and stopped as one' },
  { parts: ['index'], why: 'the one door the rest of src/ uses' },
];
const memoryPart = (parts) => `^src/memory/(${parts.join('|')})(/|[.]ts$)`;
const memoryFloorRules = MEMORY_FLOORS.flatMap(({ parts, why }, floor) =>
  parts.map((part) => ({
    name: `memory-floor-${part}`,
    severity: 'error',
    comment: `memory/${part} stands on floor ${floor + 1} (${why}): it imports only the floors below.`,
    from: { path: memoryPart([part]) },
    to: { path: memoryPart([...parts.filter((p) => p !== part), ...MEMORY_FLOORS.slice(floor + 1).flatMap((f) => f.parts)]) },
  })),
);

const SERVICES = '^src/(tasks|workflows|memory|dream|llm|agent|integrate|monitor|redact|inject)/';

module.exports = {
  forbidden: [
    ...memoryFloorRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood (or layered) one at a time.',
      from: {},
      to: { circular: true },
    },
    { name: 'not-to-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
    { name: 'no-binary-import', severity: 'error', comment: 'src/cli.ts is the entry point; nothing imports it.', from: {}, to: { path: '^src/cli[.]ts$' } },

    {
      name: 'leaves-are-leaves',
      severity: 'error',
      comment: 'The root modules import only each other.',
      from: { path: LEAVES },
      to: { path: '^src/', pathNot: LEAVES },
    },
    {
      name: 'sys-is-the-floor',
      severity: 'error',
      comment: 'sys/ knows nothing of tasks, memories or the API: only errors, paths, the clock.',
      from: { path: '^src/sys/' },
      to: { path: '^src/', pathNot: '^src/(sys/|(errors|paths|clock)[.]ts$)' },
    },
    {
      name: 'api-is-schemas',
      severity: 'error',
      comment: 'api/ holds the route table, its zod schemas and how their values read (zod-free formatters): nothing that runs.',
      from: { path: '^src/api/' },
      to: { path: '^src/', pathNot: '^src/(api/|errors[.]ts$)' },
    },
    {
      name: 'client-over-api',
      severity: 'error',
      comment: 'client/ talks to the daemon through api/; it knows no service and no surface.',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: `^src/(client|api|sys)/|${LEAVES}` },
    },

    {
      name: 'surfaces-through-client',
      severity: 'error',
      comment: 'cli/ and mcp/ reach the daemon only through client/ (the program entries below aside).',
      from: { path: '^src/(cli|mcp)/' },
      to: { path: '^src/(daemon|tasks|workflows|memory|dream|llm|agent|monitor|sys)/', pathNot: '^src/(daemon/main|agent/run)[.]ts$' },
    },
    {
      name: 'program-entries-on-demand',
      severity: 'error',
      comment: 'The binary hosts the daemon, the agent run and the MCP server: cli/ loads each with await import(), from its own command only.',
      from: { path: '^src/', pathNot: '^src/cli/(daemon|agent|mcp)[.]ts$' },
      to: { path: '^src/(daemon/main|agent/run|mcp/stdio)[.]ts$' },
    },
    {
      name: 'program-entries-dynamic',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/(daemon/main|agent/run|mcp/stdio)[.]ts$', dynamic: false },
    },
    { name: 'no-mcp-to-cli', severity: 'error', comment: 'Surfaces do not import each other.', from: { path: '^src/mcp/' }, to: { path: '^src/cli/' } },
    { name: 'no-cli-to-mcp', severity: 'error', from: { path: '^src/cli/' }, to: { path: '^src/mcp/', pathNot: '^src/mcp/stdio[.]ts$' } },

    {
      name: 'daemon-serves',
      severity: 'error',
      comment: 'The daemon answers clients; it is none.',
      from: { path: '^src/daemon/' },
      to: { path: '^src/(cli|mcp|client)/' },
    },
    { name: 'services-below-the-daemon', severity: 'error', from: { path: SERVICES }, to: { path: '^src/(cli|mcp|daemon)/' } },
    {
      name: 'only-agent-is-a-client',
      severity: 'error',
      comment: 'Services run in the daemon; only an agent run talks to it as a client.',
      from: { path: '^src/(tasks|workflows|memory|dream|llm|integrate|monitor)/' },
      to: { path: '^src/client/' },
    },
    { name: 'tasks-stand-alone', severity: 'error', from: { path: '^src/tasks/' }, to: { path: '^src/(workflows|memory|dream|agent|llm|integrate|inject)/' } },
    {
      name: 'workflows-over-tasks',
      severity: 'error',
      comment: 'Workflows and schedules submit ordinary tasks through the task manager; tasks know nothing of them.',
      from: { path: '^src/workflows/' },
      to: { path: '^src/(memory|dream|agent|llm|integrate|monitor)/' },
    },
    { name: 'memory-below-dream', severity: 'error', from: { path: '^src/memory/' }, to: { path: '^src/(tasks|workflows|dream|agent|integrate|inject)/' } },
    {
      name: 'memory-has-one-door',
      severity: 'error',
      comment: 'memory/ is used through memory/index.ts alone, so its pipeline can be rearranged without touching its users.',
      from: { path: '^src/', pathNot: '^src/memory/' },
      to: { path: '^src/memory/', pathNot: '^src/memory/index[.]ts$' },
    },
    { name: 'dream-over-memory', severity: 'error', from: { path: '^src/dream/' }, to: { path: '^src/(tasks|workflows|agent|integrate|inject)/' } },
    {
      name: 'inject-meets-at-the-agent',
      severity: 'error',
      comment:
        "inject/ is where tasks and memory meet at the agent (the blocks, the ledger, rejections, task outcomes): it reads memory through its door and task output through the tasks' own reader, and serves no one but the daemon.",
      from: { path: '^src/inject/' },
      to: { path: '^src/', pathNot: `^src/(inject|api|sys|redact)/|^src/(memory/index|tasks/output|llm/tokens)[.]ts$|${LEAVES}` },
    },
    { name: 'only-the-daemon-injects', severity: 'error', from: { path: '^src/', pathNot: '^src/(daemon|inject)/' }, to: { path: '^src/inject/' } },
    {
      name: 'agent-through-the-daemon',
      severity: 'error',
      comment: 'An agent run reaches tasks and memories through the daemon (client/), never directly.',
      from: { path: '^src/agent/' },
      to: { path: '^src/(tasks|workflows|memory|dream|integrate)/' },
    },
    { name: 'llm-is-a-library', severity: 'error', from: { path: '^src/llm/' }, to: { path: '^src/(tasks|workflows|memory|dream|agent|integrate)/' } },
    {
      name: 'monitor-stands-alone',
      severity: 'error',
      from: { path: '^src/monitor/' },
      to: { path: '^src/(tasks|workflows|memory|dream|agent|llm|integrate)/' },
    },
    {
      name: 'redact-is-a-library',
      severity: 'error',
      comment: 'redact/ masks secrets and personal data in any text (memory, the dream, the ledger use it); it knows none of them.',
      from: { path: '^src/redact/' },
      to: { path: '^src/', pathNot: `^src/redact/|${LEAVES}` },
    },
    { name: 'integrate-edits-files', severity: 'error', from: { path: '^src/integrate/' }, to: { path: '^src/', pathNot: `^src/integrate/|${LEAVES}` } },

    {
      name: 'ui-server-below-the-daemon',
      severity: 'error',
      comment: 'ui/ (the dashboard listener, auth, SSE) is given the API dispatcher by the daemon; it knows no service and no surface.',
      from: { path: '^src/ui/', pathNot: '^src/ui/web/' },
      to: { path: '^src/', pathNot: `^src/(ui/|api/|sys/)|${LEAVES}` },
    },
    {
      name: 'ui-web-speaks-the-api',
      severity: 'error',
      comment: "The dashboard's front end runs in the browser: of src/ it takes the route table and the formatters (zod-free) and the endpoint table's types.",
      from: { path: '^src/ui/web/' },
      to: { path: '^src/', pathNot: '^src/(ui/web|api)/' },
    },
    { name: 'only-the-daemon-serves-ui', severity: 'error', from: { path: '^src/', pathNot: '^src/(daemon|ui)/' }, to: { path: '^src/ui/' } },
    { name: 'scripts-read-the-table', severity: 'error', from: { path: '^scripts/', pathNot: '^scripts/fit' }, to: { path: '^src/', pathNot: '^src/api/' } },
    {
      name: 'the-fit-reads-the-pipeline',
      severity: 'error',
      comment:
        "The ranker is fitted with the daemon's own candidates and features (and the rejections' record), so the fit and the daemon cannot drift apart; nothing else.",
      from: { path: '^scripts/fit' },
      to: { path: '^src/', pathNot: '^src/(api|memory|llm)/|^src/inject/rejections[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};

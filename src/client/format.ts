/** Formatting shared by the surfaces (CLI, MCP, the agent's tools): tasks, commands, sizes. */
// The status words live beside the outcome table, where the dashboard reads them too.
export { statusLabel, statusText } from '../api/task-status.js';

// Sizes and commands read alike in the dashboard, which shares api/format.ts.
export { binarySize, commandLine, humanBytes, humanSize, readLimitWords } from '../api/format.js';

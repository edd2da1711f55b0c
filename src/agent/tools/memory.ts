/** Memory through the daemon: the memory tools of client/memory-tools, and the block an agent run starts with. */
import type { RecallResponse } from '../../api/memory.js';
import { memoryTools } from '../../client/memory-tools/tools.js';
import { MEMORY_TOOL_NAMES } from '../../client/tool-names.js';
import { adaptClientTool } from './tasks.js';
import type { AgentTool } from './types.js';

/** The recalled items as lines for the start of a run's context. */
export function formatRecall(r: RecallResponse): string {
  if (r.items.length === 0) return '';
  return r.items.map((i) => `- ${i.kind === 'episode' ? '[past session] ' : ''}${i.text}`).join('\n');
}

/** Recall and remember (forgetting and searching old sessions are the person's, through the CLI and MCP); a smaller recall budget than MCP's, since it lands in the agent's own context. */
export const MEMORY_TOOLS: AgentTool[] = memoryTools({
  names: { recall: MEMORY_TOOL_NAMES.recall, remember: MEMORY_TOOL_NAMES.remember },
  budget: { default: 1000, max: 8000 },
}).map(adaptClientTool);

/** The agent's tools and the dispatch of one call: unknown tools and failures become is_error results. */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { AppError } from '../../errors.js';
import { delegateTool } from './delegate.js';
import { FILE_TOOLS } from './files.js';
import { MEMORY_TOOLS } from './memory.js';
import { SEARCH_TOOLS } from './search.js';
import { bashTool } from './shell.js';
import { TASK_TOOLS } from './tasks.js';
import { failure, ToolFailure, type AgentTool, type ToolContext, type ToolResult } from './types.js';

export type { AgentTool, ToolContext, ToolResult } from './types.js';

export class ToolSet {
  private readonly byName = new Map<string, AgentTool>();

  constructor(tools: readonly AgentTool[]) {
    for (const t of tools) this.byName.set(t.definition.name, t);
  }

  /** Sub-agents get no delegate tool: one level of delegation. */
  static standard(opts: { delegate: boolean }): ToolSet {
    return new ToolSet([bashTool, ...FILE_TOOLS, ...SEARCH_TOOLS, ...TASK_TOOLS, ...MEMORY_TOOLS, ...(opts.delegate ? [delegateTool] : [])]);
  }

  get definitions(): Tool[] {
    return [...this.byName.values()].map((t) => t.definition);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  brief(name: string, input: unknown): string {
    const t = this.byName.get(name);
    if (t) return t.brief(input);
    const raw = JSON.stringify(input ?? {});
    return `${name}(${raw.length > 80 ? `${raw.slice(0, 79)}…` : raw})`;
  }

  /**
   * Runs one call. What the model can correct or work around comes back as an is_error result: an
   * unknown tool, bad input, a ToolFailure, a daemon error (AppError), a file system error (errno).
   * Anything else is a bug and is thrown.
   */
  async run(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult> {
    const t = this.byName.get(name);
    if (!t) return failure(`unknown tool ${name}; the tools are: ${this.names.join(', ')}`);
    try {
      return await t.run(input, ctx);
    } catch (err) {
      if (err instanceof ToolFailure) return failure(err.message);
      if (err instanceof AppError) return failure(`${name} failed: ${err.message}`);
      if (err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && (err as NodeJS.ErrnoException).syscall) {
        return failure(`${name} failed: ${err.message}`);
      }
      throw err;
    }
  }
}

/**
 * What a tool is to the loop: a definition the model sees, a zod schema its input is checked
 * against, and a run that answers with text. Failures the model can act on (a missing file, an
 * ambiguous edit, a daemon that said no) come back as `is_error` results; only programming errors
 * throw.
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { z } from 'zod';
import type { ApiClient } from '../../client/api-client.js';

export interface ToolContext {
  /** The agent's working directory: relative paths resolve against it. */
  cwd: string;
  /** This agent task's id (named in the tasks it starts, and the parent of its sub-agents). */
  taskId: string;
  client: ApiClient;
  /** Environment of the commands the agent runs: the task's, without the model's secrets. */
  env: Record<string, string>;
  /** Tasks the run is waiting on in the foreground: killed if the run itself is stopped. */
  foreground: Set<string>;
  /** What a delegated sub-agent inherits. */
  model: { name: string; contextWindow: number; maxOutputTokens: number };
}

export interface ToolResult {
  content: string;
  is_error?: boolean;
}

export interface AgentTool {
  definition: Tool;
  /** Short form of a call for the log: `bash(npm test)`. */
  brief(input: unknown): string;
  run(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/** A failure to report to the model (not a programming error). */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
}

export const failure = (message: string): ToolResult => ({ content: message, is_error: true });

const clipLine = (s: string, n: number): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/**
 * A tool from its schema: input that does not parse is an error result naming the field, so the
 * model can correct the call.
 */
export function defineTool<S extends z.ZodTypeAny>(t: {
  name: string;
  description: string;
  inputSchema: Tool['input_schema'];
  schema: S;
  brief: (input: z.infer<S>) => string;
  run: (input: z.infer<S>, ctx: ToolContext) => Promise<ToolResult>;
}): AgentTool {
  return {
    definition: { name: t.name, description: t.description, input_schema: t.inputSchema },
    brief: (raw) => {
      const p = t.schema.safeParse(raw);
      return `${t.name}(${clipLine(p.success ? t.brief(p.data) : JSON.stringify(raw ?? {}), 80)})`;
    },
    run: async (raw, ctx) => {
      const p = t.schema.safeParse(raw);
      if (!p.success) {
        const issues = p.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
        return failure(`invalid input for ${t.name}: ${issues.join('; ')}`);
      }
      return t.run(p.data, ctx);
    },
  };
}

/**
 * What a client tool (task, schedule, workflow, memory) is, whichever adapter offers it, and
 * writing one with its input's type known inside.
 */
import type { z, ZodRawShape } from 'zod';
import type { Caller } from '../caller.js';

/** Where the tools run: how to reach the daemon, and what a task gets by default. */
export interface TaskToolHost {
  call: Caller;
  /** Where relative and missing `cwd`s resolve. */
  cwd: string;
  /** The environment a task gets. */
  env: () => Record<string, string>;
  /** The name of a task: the caller's, or one made from the command. */
  name?: (given: string | undefined, command: string) => string | undefined;
  /** The project memories are recalled for and remembered in when a call names none (default: `cwd`). */
  project?: string;
}

export interface TaskToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

/** One tool; `run` gets input already checked against `input` (each adapter checks it at its boundary). */
export interface TaskTool {
  name: string;
  title: string;
  description: string;
  input: ZodRawShape;
  output: ZodRawShape;
  brief(input: Record<string, unknown>): string;
  run(input: Record<string, unknown>, host: TaskToolHost): Promise<TaskToolAnswer>;
}

type In<I extends ZodRawShape> = z.infer<z.ZodObject<I>>;

export type ToolSpec<I extends ZodRawShape> = Omit<TaskTool, 'input' | 'brief' | 'run'> & {
  input: I;
  brief(i: In<I>): string;
  run(i: In<I>, host: TaskToolHost): Promise<TaskToolAnswer>;
};

export function defineTool<I extends ZodRawShape>(t: ToolSpec<I>): TaskTool {
  // The adapters parse with `input` before they call: here the shape is known again.
  return { ...t, brief: (i) => t.brief(i as In<I>), run: (i, host) => t.run(i as In<I>, host) };
}

/** The tool when the adapter names it (`name` given), else none: how an adapter offers a subset. */
export function namedTool<I extends ZodRawShape>(name: string | undefined, t: Omit<ToolSpec<I>, 'name'>): TaskTool[] {
  return name === undefined ? [] : [defineTool({ ...t, name })];
}

/**
 * Agent tasks over the API: starting one (`nightshift agent`), asking one to compact
 * (`nightshift compact`), and the agent part of a task record (`show --json`). An agent task is a
 * task like any other; these are the parts only it has.
 */
import { z } from 'zod';

/** The same rule as TaskId (kept here so the two schema modules do not import each other). */
const TaskRef = z.string().regex(/^[1-9][0-9]{0,11}$/, 'task ids are positive integers, e.g. 12');
const NoNul = /^[^\u0000]*$/;

export const AgentRequest = z
  .object({
    /** The task for the agent. Optional with `resume` (then a note says the task was interrupted). */
    prompt: z.string().max(200_000, 'the prompt is at most 200,000 characters').regex(NoNul, 'the prompt cannot contain NUL bytes').optional(),
    /** Required unless resuming (then the resumed task's). */
    cwd: z.string().min(1).max(4096).startsWith('/', 'cwd must be an absolute path').regex(NoNul, 'cwd cannot contain NUL bytes').optional(),
    model: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9._:@/-]+$/, 'model names are letters, digits and . _ : @ / -')
      .optional(),
    contextWindow: z.number().int().min(1000).max(10_000_000).optional(),
    maxOutputTokens: z.number().int().min(16).max(1_000_000).optional(),
    /** Model requests at most (a safety net; the context never fills). Default 200. */
    maxTurns: z.number().int().min(1).max(100_000).optional(),
    /** Continue this stopped or lost agent task in a new task. */
    resume: TaskRef.optional(),
    /** Set by the `delegate` tool: the agent task this sub-agent reports to. */
    parent: TaskRef.optional(),
    name: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'name has control characters')
      .optional(),
    env: z
      .record(
        z
          .string()
          .min(1)
          .max(1024)
          .regex(/^[^=\u0000]+$/, 'bad variable name'),
        z
          .string()
          .max(128 * 1024)
          .regex(NoNul, 'environment values cannot contain NUL bytes'),
      )
      .optional(),
  })
  .strict()
  .refine((r) => r.resume !== undefined || (r.prompt !== undefined && r.prompt.trim() !== ''), {
    message: 'the prompt is empty (give a task, or --resume ID)',
    path: ['prompt'],
  });
export type AgentRequest = z.infer<typeof AgentRequest>;

/** The latest context health of a running agent (ContextManager.health() and when it was taken). */
export const AgentHealth = z
  .object({
    at: z.string(),
    iteration: z.number(),
    tokens: z.number(),
    contextWindow: z.number(),
    maxOutputTokens: z.number(),
    utilisation: z.number(),
    pctOfWindow: z.number(),
    zone: z.string(),
  })
  .passthrough();
export type AgentHealth = z.infer<typeof AgentHealth>;

/** How an agent run ended (result.json), `summary` being its final answer. */
export const AgentResult = z.object({
  ok: z.boolean(),
  code: z.string(),
  message: z.string(),
  summary: z.string(),
  turns: z.number(),
  endedAt: z.string(),
  /** Tokens the model counted over the run. */
  usage: z.object({ input: z.number(), output: z.number() }).optional(),
});
export type AgentResult = z.infer<typeof AgentResult>;

/** The agent part of a task record: its spec, its latest health, how it ended. */
export const AgentInfo = z.object({
  model: z.string(),
  contextWindow: z.number(),
  maxOutputTokens: z.number(),
  prompt: z.string(),
  parent: z.string().optional(),
  resumedFrom: z.string().optional(),
  compactRequested: z.boolean(),
  health: AgentHealth.optional(),
  result: AgentResult.optional(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

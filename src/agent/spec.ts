/**
 * An agent task's directory: what the daemon writes there before it starts (`agent.json`, the
 * spec) and what the run keeps there (transcript, health, result, control requests), next to the
 * task's own files (output.log, exit, …) and the context library's (tool-results/, context/).
 * Credentials never go in here: the model settings reach the run through its environment.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isErrno } from '../errors.js';
import { writeFileAtomic } from '../sys/atomic-file.js';

export const AGENT_FORMAT = 'nightshift.agent/1';

export const AGENT_FILES = {
  spec: 'agent.json',
  /** Every message of this run, one JSON object per line (`{role, content, id, timestamp}`). */
  transcript: 'transcript.jsonl',
  /** Resumed tasks: the messages of the runs before this one (not ingested again). */
  resumed: 'resumed.jsonl',
  health: 'health.json',
  result: 'result.json',
  /** Present while a compaction is requested (`nightshift compact ID`); the run removes it. */
  compactRequest: 'compact-request',
} as const;

export const AgentSpec = z.object({
  format: z.literal(AGENT_FORMAT),
  taskId: z.string(),
  createdAt: z.string(),
  prompt: z.string(),
  cwd: z.string(),
  model: z.string(),
  contextWindow: z.number().int(),
  maxOutputTokens: z.number().int(),
  maxTurns: z.number().int(),
  /** The daemon's socket, so the run reaches the daemon that started it. */
  socket: z.string(),
  parent: z.string().optional(),
  resumedFrom: z.string().optional(),
  /** Resumed with a prompt: said to the agent after the restored history. */
  followUp: z.string().optional(),
});
export type AgentSpec = z.infer<typeof AgentSpec>;

export const DEFAULT_MAX_TURNS = 200;

export const agentFile = (dir: string, f: keyof typeof AGENT_FILES): string => join(dir, AGENT_FILES[f]);

/** JSON of a file, or undefined when it is missing or unreadable. */
export async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    if (isErrno(err, 'ENOENT') || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

export async function readSpec(dir: string): Promise<AgentSpec | undefined> {
  const r = AgentSpec.safeParse(await readJsonFile(agentFile(dir, 'spec')));
  return r.success ? r.data : undefined;
}

/** A reader sees the old content or the new, never half of it. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

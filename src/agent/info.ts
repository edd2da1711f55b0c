/** The agent part of a task record, read from the task directory (`nightshift show ID --json`). */
import { access } from 'node:fs/promises';
import { AgentHealth, AgentResult, type AgentInfo } from '../api/agent.js';
import type { Task } from '../api/tasks.js';
import { agentFile, readJsonFile, readSpec } from './spec.js';

const PROMPT_SHOWN = 2000;

export async function readAgentInfo(dir: string): Promise<AgentInfo | undefined> {
  const spec = await readSpec(dir);
  if (!spec) return undefined;
  const [health, result, requested] = await Promise.all([
    readJsonFile(agentFile(dir, 'health')).then((j) => AgentHealth.safeParse(j)),
    readJsonFile(agentFile(dir, 'result')).then((j) => AgentResult.safeParse(j)),
    access(agentFile(dir, 'compactRequest')).then(
      () => true,
      () => false,
    ),
  ]);
  const info: AgentInfo = {
    model: spec.model,
    contextWindow: spec.contextWindow,
    maxOutputTokens: spec.maxOutputTokens,
    prompt: spec.prompt.length > PROMPT_SHOWN ? `${spec.prompt.slice(0, PROMPT_SHOWN)}…` : spec.prompt,
    compactRequested: requested,
  };
  if (spec.parent) info.parent = spec.parent;
  if (spec.resumedFrom) info.resumedFrom = spec.resumedFrom;
  if (health.success) info.health = health.data;
  if (result.success) info.result = result.data;
  return info;
}

/** The task with its agent part when it is an agent task. */
export async function withAgentInfo(task: Task, dir: string): Promise<Task> {
  const agent = await readAgentInfo(dir);
  return agent ? { ...task, agent } : task;
}

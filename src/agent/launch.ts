/**
 * Launching agent tasks, the daemon's side: an agent task is a task like any other, whose command is
 * the hidden `nightshift agent-run --spec <task dir>/agent.json`; the spec is written into the task's
 * directory before it starts. The model comes from the daemon's environment (without one, agents are
 * refused at once), and the caller's own credentials never reach the run. Compaction is asked of a
 * running agent through a file it watches. The route only parses the request and calls this.
 */
import type { AgentRequest } from '../api/agent.js';
import { statusOf, type RunRequest, type Task } from '../api/tasks.js';
// The module, not the context barrel: the barrel would load the model SDK into every daemon start (~0.1–0.3 s).
import { resolveWindow } from './context/model-window.js';
import { now } from '../clock.js';
import { AppError } from '../errors.js';
import { INSTALL } from '../paths.js';
import { writeFileAtomic } from '../sys/atomic-file.js';
import { withAgentInfo } from './info.js';
import { carryOver, resumable, type AgentTasks } from './launch-resume.js';
import { modelEnv, MODEL_ENV_KEYS, resolveAgentModel } from './model-env.js';
import { AGENT_FORMAT, agentFile, DEFAULT_MAX_TURNS, readSpec, writeJsonAtomic, type AgentSpec } from './spec.js';

const CLI = INSTALL.cli;
/** An agent is quiet while the model thinks or a command runs: only a long silence is worth a look. */
const AGENT_STALL_SECONDS = 900;

export interface LaunchDeps {
  tasks: AgentTasks & {
    run(req: RunRequest, prepare: (task: { id: string; dir: string }) => Promise<{ command?: string[] }>): Promise<Task>;
  };
  /** The daemon's socket, so the run reaches the daemon that started it. */
  socket: string;
  /** The daemon's environment (model credentials). */
  env: NodeJS.ProcessEnv;
}

export interface AgentLauncher {
  /** Starts an agent task, or continues a stopped one in a new task (`resume`). */
  start(req: AgentRequest): Promise<Task>;
  /** Asks a running agent task to compact at its next turn boundary. */
  compact(id: string): Promise<Task>;
}

const oneLine = (s: string, n: number): string => {
  const t = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

export function agentLauncher(d: LaunchDeps): AgentLauncher {
  return {
    start: async (req) => {
      const model = modelEnv(d.env);
      if (!model) {
        throw new AppError(
          'model_unavailable',
          'agent tasks need a model, and the daemon has none: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for an Anthropic-compatible endpoint) ' +
            'in the environment the daemon runs in, then restart it (`nightshift service install` units: `systemctl --user edit nightshift` → Environment=…)',
        );
      }
      const prev = req.resume ? await resumable(d.tasks, req.resume) : undefined;
      const modelName = req.model ?? prev?.spec.model ?? resolveAgentModel(d.env);
      const overrides = {
        ...((req.contextWindow ?? prev?.spec.contextWindow) !== undefined ? { contextWindow: req.contextWindow ?? prev?.spec.contextWindow } : {}),
        ...((req.maxOutputTokens ?? prev?.spec.maxOutputTokens) !== undefined ? { maxOutputTokens: req.maxOutputTokens ?? prev?.spec.maxOutputTokens } : {}),
      };
      const window = resolveWindow(modelName, overrides);
      if (!window.ok) throw new AppError('bad_request', `invalid context window: ${window.error.message}`);
      const cwd = prev && req.cwd === undefined ? prev.spec.cwd : req.cwd;
      if (cwd === undefined) throw new AppError('bad_request', 'invalid agent request: cwd is required');
      // The daemon decides the model: the caller's own credentials never reach the run.
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.env ?? {})) if (!MODEL_ENV_KEYS.includes(k)) env[k] = v;
      Object.assign(env, model);
      // Resumed: the task statement stays the original one; a prompt given with --resume follows it.
      const prompt = prev ? prev.spec.prompt : (req.prompt ?? '');
      const label = req.name ?? (prev ? `agent (resumes ${prev.spec.taskId}): ${oneLine(prev.spec.prompt, 60)}` : `agent: ${oneLine(prompt, 80)}`);
      const task = await d.tasks.run(
        { command: [process.execPath, CLI, 'agent-run'], cwd, env, name: label, stdin: false, stallAfterSeconds: AGENT_STALL_SECONDS },
        async ({ id, dir }) => {
          const spec: AgentSpec = {
            format: AGENT_FORMAT,
            taskId: id,
            createdAt: now().toISOString(),
            prompt,
            cwd,
            model: modelName,
            contextWindow: window.value.contextWindow,
            maxOutputTokens: window.value.maxOutputTokens,
            maxTurns: req.maxTurns ?? DEFAULT_MAX_TURNS,
            socket: d.socket,
            ...(req.parent ? { parent: req.parent } : {}),
            ...(prev ? { resumedFrom: prev.spec.taskId } : {}),
            ...(prev && req.prompt?.trim() ? { followUp: req.prompt } : {}),
          };
          if (prev) await carryOver(prev.dir, dir);
          await writeJsonAtomic(agentFile(dir, 'spec'), spec);
          return { command: [process.execPath, CLI, 'agent-run', '--spec', agentFile(dir, 'spec')] };
        },
      );
      return withAgentInfo(task, d.tasks.dir(task.id));
    },
    compact: async (id) => {
      const task = await d.tasks.get(id);
      const dir = d.tasks.dir(id);
      if (!(await readSpec(dir))) throw new AppError('bad_request', `task ${id} is not an agent task; only agent tasks have a context to compact`);
      if (task.state !== 'running')
        throw new AppError('conflict', `agent task ${id} is not running (it is ${statusOf(task)}); \`nightshift agent --resume ${id}\` continues it`);
      // Whole or not at all: the run takes the file's presence as the request (a full disk refuses it, naming the file).
      await writeFileAtomic(agentFile(dir, 'compactRequest'), `${now().toISOString()}\n`);
      return withAgentInfo(task, dir);
    },
  };
}

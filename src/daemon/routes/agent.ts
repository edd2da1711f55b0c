/**
 * Agent tasks: `POST /v1/agents` starts one through the task manager (a task like any other, whose
 * command is the hidden `nightshift agent-run --spec <task dir>/agent.json`), `POST
 * /v1/agents/:id/compact` asks a running one to compact at its next turn boundary. The model comes
 * from the daemon's environment; without one, agents are refused at once.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isFinished } from '../../api/tasks.js';
// The two modules, not the barrel: it would load the model SDK into every daemon start (~0.1–0.3 s).
import { checkpointPaths } from '../../agent/context/checkpoint.js';
import { resolveWindow } from '../../agent/context/window.js';
import { withAgentInfo } from '../../agent/info.js';
import { modelEnv, MODEL_ENV_KEYS, resolveAgentModel } from '../../agent/model-env.js';
import { AGENT_FORMAT, agentFile, DEFAULT_MAX_TURNS, readSpec, writeJsonAtomic, type AgentSpec } from '../../agent/spec.js';
import { now } from '../../clock.js';
import { AppError, isErrno } from '../../errors.js';
import { INSTALL } from '../../paths.js';
import { writeFileAtomic } from '../../sys/atomic-file.js';
import type { TaskManager } from '../../tasks/manager.js';
import type { Handlers } from '../http.js';

const CLI = INSTALL.cli;
/** An agent is quiet while the model thinks or a command runs: only a long silence is worth a look. */
const AGENT_STALL_SECONDS = 900;

export interface AgentRouteDeps {
  tasks: TaskManager;
  socket: string;
  /** The daemon's environment (model credentials). */
  env: NodeJS.ProcessEnv;
}

const oneLine = (s: string, n: number): string => {
  const t = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** What `--resume ID` continues from: an agent task that is no longer running. */
async function resumable(tasks: TaskManager, id: string): Promise<{ spec: AgentSpec; dir: string }> {
  const task = await tasks.get(id);
  const dir = tasks.dir(id);
  const spec = await readSpec(dir);
  if (!spec) throw new AppError('bad_request', `task ${id} is not an agent task, so it cannot be resumed`);
  if (!isFinished(task))
    throw new AppError(
      'conflict',
      `agent task ${id} is still ${task.status}; kill it first (\`nightshift kill ${id}\`) or ask it to compact (\`nightshift compact ${id}\`)`,
    );
  return { spec, dir };
}

/** The new task's resumed.jsonl (every message before it) and the checkpoint it continues from. */
async function carryOver(from: string, to: string): Promise<void> {
  const parts: Buffer[] = [];
  for (const f of ['resumed', 'transcript'] as const) {
    try {
      const b = await readFile(agentFile(from, f));
      if (b.length > 0) parts.push(b, ...(b[b.length - 1] === 0x0a ? [] : [Buffer.from('\n')]));
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
  }
  await writeFile(agentFile(to, 'resumed'), Buffer.concat(parts), { mode: 0o600 });
  const src = checkpointPaths(from);
  const dst = checkpointPaths(to);
  for (const k of ['json', 'md'] as const) {
    try {
      await mkdir(dst.dir, { recursive: true, mode: 0o700 });
      await copyFile(src[k], dst[k]);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
  }
}

export function agentHandlers(d: AgentRouteDeps): Pick<Handlers, 'startAgent' | 'compactAgent'> {
  return {
    startAgent: async ({ body: req }) => {
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
      return { json: { task: await withAgentInfo(task, d.tasks.dir(task.id)) } };
    },
    compactAgent: async ({ params: { id } }) => {
      const task = await d.tasks.get(id);
      const dir = d.tasks.dir(id);
      if (!(await readSpec(dir))) throw new AppError('bad_request', `task ${id} is not an agent task; only agent tasks have a context to compact`);
      if (task.status !== 'running')
        throw new AppError('conflict', `agent task ${id} is not running (it is ${task.status}); \`nightshift agent --resume ${id}\` continues it`);
      // Whole or not at all: the run takes the file's presence as the request (a full disk refuses it, naming the file).
      await writeFileAtomic(agentFile(dir, 'compactRequest'), `${now().toISOString()}\n`);
      return { json: { task: await withAgentInfo(task, dir) } };
    },
  };
}

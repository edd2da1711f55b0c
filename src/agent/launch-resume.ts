/**
 * `nightshift agent --resume ID`: what a new agent task continues from. The earlier task must be an
 * agent task that is no longer running; the new task's directory gets every message before it
 * (resumed.jsonl: the earlier runs' and the earlier task's own transcript) and the checkpoint.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isFinished, type Task } from '../api/tasks.js';
// The module, not the context barrel: the barrel would load the model SDK into the daemon.
import { checkpointPaths } from './context/checkpoint.js';
import { AppError, isErrno } from '../errors.js';
import { agentFile, readSpec, type AgentSpec } from './spec.js';

/** What launching an agent needs of the daemon's task manager. */
export interface AgentTasks {
  get(id: string): Promise<Task>;
  dir(id: string): string;
}

/** What `--resume ID` continues from: an agent task that is no longer running. */
export async function resumable(tasks: AgentTasks, id: string): Promise<{ spec: AgentSpec; dir: string }> {
  const task = await tasks.get(id);
  const dir = tasks.dir(id);
  const spec = await readSpec(dir);
  if (!spec) throw new AppError('bad_request', `task ${id} is not an agent task, so it cannot be resumed`);
  if (!isFinished(task))
    throw new AppError(
      'conflict',
      `agent task ${id} is still ${task.state}; kill it first (\`nightshift kill ${id}\`) or ask it to compact (\`nightshift compact ${id}\`)`,
    );
  return { spec, dir };
}

/** The new task's resumed.jsonl (every message before it) and the checkpoint it continues from. */
export async function carryOver(from: string, to: string): Promise<void> {
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

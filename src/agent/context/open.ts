/**
 * `--resume ID`: the manager of a stopped or lost task from its task directory's checkpoint (if it
 * saved one) and the transcript the loop kept (every message given to the manager, in order).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { loadCheckpoint } from './checkpoint.js';
import { ContextManager } from './manager.js';
import type { ContextManagerOptions } from './options.js';
import type { Result } from './types.js';

export async function resumeTask(transcript: readonly MessageParam[], opts: ContextManagerOptions & { taskDir: string }): Promise<Result<ContextManager>> {
  const cp = await loadCheckpoint(opts.taskDir);
  if (!cp.ok) return cp;
  return ContextManager.resume(cp.value, transcript, opts);
}

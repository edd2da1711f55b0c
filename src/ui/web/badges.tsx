import type { Task } from '../../api/tasks.js';
import { stateKind, stateText } from './format.js';

export function StateBadge({ task }: { task: Task }) {
  return <span class={`badge state-${stateKind(task)}`}>{stateText(task)}</span>;
}

/** Shown while a running task waits at a prompt or has gone silent. */
export function AttentionBadge({ task }: { task: Task }) {
  if (task.state !== 'running' || !task.attention) return null;
  const prompt = task.attention.kind === 'prompt';
  return (
    <span class={`badge attention-${task.attention.kind}`} title={task.attention.tail}>
      {prompt ? 'waiting for input' : 'silent'}
    </span>
  );
}

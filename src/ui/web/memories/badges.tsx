/** How a memory's state reads: active, archived (why), superseded (by which), pinned, edited. */
import type { Memory } from '../../../api/memory.js';

export function memoryState(m: Memory): 'active' | 'archived' | 'superseded' {
  if (m.supersededBy !== undefined) return 'superseded';
  if (m.archivedAt !== undefined) return 'archived';
  return 'active';
}

export function MemoryBadges({ memory: m }: { memory: Memory }) {
  const state = memoryState(m);
  return (
    <>
      {state !== 'active' && (
        <span class={`badge mem-${state}`} title={m.archiveReason}>
          {state}
        </span>
      )}
      {m.pinned && <span class="badge mem-pinned">pinned</span>}
      {m.editedAt !== undefined && <span class="badge mem-edited">edited</span>}
    </>
  );
}

/** Where a memory lives: you, a team, or a project. */
export function whereText(m: Memory): string {
  if (m.scope === 'user') return 'you';
  if (m.scope === 'team') return `team ${m.team ?? ''}`;
  return m.project ?? 'project';
}

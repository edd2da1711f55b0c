/** Import of exported memories (JSONL lines): what a line leaves out gets the defaults of `remember`. */
import type { ImportLine, Memory } from '../../api/memory.js';
import { MemoryId } from '../../api/memory.js';
import { newMemoryId, type Namespace } from './model.js';
import type { MemoryStore } from './store.js';
import { slotOf } from './slots.js';

export function importMemory(store: MemoryStore, line: ImportLine, ns: Namespace, now: string): Memory {
  const id = line.id !== undefined && MemoryId.safeParse(line.id).success ? line.id : newMemoryId();
  const createdAt = line.createdAt ?? now;
  const memory: Memory = {
    id,
    content: line.content,
    type: line.type ?? 'note',
    scope: ns.scope,
    ...(ns.scope === 'project' && { project: ns.project }),
    ...(ns.scope === 'team' && { team: ns.team }),
    stable: line.stable ?? false,
    pinned: line.pinned ?? false,
    importance: line.importance ?? 0.6,
    createdAt,
    lastSeenAt: line.lastSeenAt ?? createdAt,
    reinforcements: line.reinforcements ?? 0,
    sources: line.sources ?? [],
    origin: 'import',
    ...(line.supersededBy !== undefined && MemoryId.safeParse(line.supersededBy).success && { supersededBy: line.supersededBy }),
    ...(line.supersededAt !== undefined && { supersededAt: line.supersededAt }),
    ...(line.archivedAt !== undefined && { archivedAt: line.archivedAt }),
    ...(line.archiveReason !== undefined && { archiveReason: line.archiveReason }),
    ...(line.evidence !== undefined && { evidence: line.evidence }),
  };
  const slot = line.slot ?? slotOf(line.content);
  if (slot !== undefined) memory.slot = slot;
  return store.add(memory);
}

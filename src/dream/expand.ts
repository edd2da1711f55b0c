/** The memories a dream report names, as they are now: what a readable diff of the dream shows. */
import type { DreamReport, ReportMemory } from '../api/dream.js';
import type { MemoryStore } from '../memory/index.js';

export function reportMemories(report: DreamReport, store: MemoryStore): Record<string, ReportMemory> {
  const ids = new Set<string>();
  for (const m of report.merges) [m.into, ...m.merged].forEach((id) => ids.add(id));
  for (const s of report.supersessions) [s.id, s.by].forEach((id) => ids.add(id));
  for (const x of [...report.archives, ...report.reinforcements, ...report.masked]) ids.add(x.id);
  const out: Record<string, ReportMemory> = {};
  for (const id of ids) {
    const m = store.get(id);
    out[id] =
      m === undefined
        ? { exists: false }
        : {
            exists: true,
            content: m.content,
            type: m.type,
            state: m.supersededBy !== undefined ? 'superseded' : m.archivedAt !== undefined ? 'archived' : 'active',
            ...(m.supersededBy !== undefined && { supersededBy: m.supersededBy }),
            ...(m.archiveReason !== undefined && { archiveReason: m.archiveReason }),
          };
  }
  return out;
}

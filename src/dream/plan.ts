/**
 * What a dream decides, separate from doing it: every phase adds to one plan, a dry run reports
 * it, a real run applies it to the store in one step.
 */
import type { DreamReport } from '../api/dream.js';
import type { Slot, Source } from '../api/memory.js';
import { type Decisions, noDecisions } from '../memory/index.js';

export interface Merge {
  into: string;
  merged: string[];
  /** The wording that stays: the memory merged into keeps its own. */
  text: string;
  reason: string;
}

export interface Plan {
  reinforce: Map<string, { sessions: number; sources: Source[] }>;
  merges: Merge[];
  supersede: { id: string; by: string; at: string; reason: string }[];
  archive: { id: string; reason: string }[];
  mask: { id: string; text: string | null }[];
  proposals: DreamReport['proposals'];
  /** Replacements the dream is not sure of: proposed in the report, not applied. */
  replacements: NonNullable<DreamReport['replacements']>;
  /** Slots worked out for memories stored without one: saved with them. */
  slots: Map<string, Slot>;
  /** Evidence recorded, marks set and cleared, evidence found gone (its archives are in `archive` too). */
  evidence: Decisions;
}

export const emptyPlan = (): Plan => ({
  reinforce: new Map(),
  merges: [],
  supersede: [],
  archive: [],
  mask: [],
  proposals: [],
  replacements: [],
  slots: new Map(),
  evidence: noDecisions(),
});

/** Memories a plan already takes out of the active set (merged away, superseded, archived). */
export function removedBy(plan: Plan): Set<string> {
  const out = new Set<string>();
  for (const m of plan.merges) for (const id of m.merged) out.add(id);
  for (const s of plan.supersede) out.add(s.id);
  for (const a of plan.archive) out.add(a.id);
  for (const m of plan.mask) if (m.text === null) out.add(m.id);
  return out;
}

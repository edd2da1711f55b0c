/** The shape of one rule of the heuristic extractor's table (heuristic-rules.ts, fact-rules.ts). */
import type { MemoryType } from '../../api/memory.js';

/**
 * What a sentence must show beyond its pattern:
 * - standing: an explicit standing marker (always, from now on…): some content is enough;
 * - gentle: a statement of taste or convention: content, and not pointing at the current task;
 * - request: an imperative without a standing marker: as gentle, with at least four words and no
 *   "here/this/that" pointing at the work in progress, which is what one-off requests look like;
 * - fact: a declarative about the project: must also name something concrete (path, tool, port…).
 */
export type Guard = 'standing' | 'gentle' | 'request' | 'fact';

/** A rule as written in the tables: everything but the essentials is optional. */
export interface RuleSpec {
  name: string;
  pattern: RegExp;
  type: MemoryType;
  importance: number;
  guard: Guard;
  /** Always project scope (facts, decisions, procedures); otherwise the project markers decide. */
  project?: boolean;
  /** A status that cannot last ("staging is down"): never stable. */
  transient?: boolean;
  /** Only when the sentence opened with "please" ("please use tabs"). */
  polite?: boolean;
  /** Sentences this rule must not take even though the pattern matched. */
  unless?: RegExp;
  /** Fewer words than the guard asks for are enough ("don't add comments"). */
  minWords?: number;
  /** Must name something concrete in the project (a tool, path, port…) whatever the guard. */
  concrete?: boolean;
}

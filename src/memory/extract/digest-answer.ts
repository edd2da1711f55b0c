/**
 * A backend's answer to a digest question → candidates. The answer as a whole must be an object
 * with a list of memories (else the session falls back to the heuristics); each memory is checked on
 * its own (llm-answer.ts) and a bad one dropped. "reinforces K3" becomes a candidate worded exactly
 * as the stored memory (so the merge reinforces it, never rewriting its text); "supersedes K3" lists
 * the stored value in `replaces`, so the merge retires it. Identity is still decided by the slots.
 */
import { z } from 'zod';
import { validateStructured } from '../../llm/structured.js';
import { toCandidate, type AnswerError, type CandidateContext } from './llm-answer.js';
import type { Proposal as Candidate, KnownMemory } from './types.js';

const Answer = z.object({ memories: z.array(z.unknown()) });
const Relation = z.object({
  relation: z.enum(['new', 'reinforces', 'supersedes']).catch('new').default('new'),
  about: z.string().trim().optional().catch(undefined),
});

export type DigestAnswer =
  { ok: true; candidates: Candidate[]; dropped: number } | { ok: false; error: AnswerError | { code: 'no_valid_memories'; message: string } };

function related(c: Candidate, raw: unknown, known: ReadonlyMap<string, KnownMemory>): Candidate {
  const r = Relation.safeParse(raw);
  if (!r.success || r.data.relation === 'new' || r.data.about === undefined) return c;
  const k = known.get(r.data.about.replace(/^\[|\]$/g, ''));
  if (k === undefined) return c;
  if (r.data.relation === 'reinforces') return { ...c, content: k.content, scope: k.scope === 'user' ? 'user' : c.scope };
  return { ...c, replaces: [...new Set([...(c.replaces ?? []), k.value ?? k.content])] };
}

export function digestCandidates(value: unknown, ctx: CandidateContext, known: ReadonlyMap<string, KnownMemory>): DigestAnswer {
  const v = validateStructured(value, Answer, { arrayKey: 'memories' });
  if (!v.ok) return { ok: false, error: v.error };
  const items = v.value.memories;
  const candidates: Candidate[] = [];
  for (const raw of items) {
    const c = toCandidate(raw, ctx);
    if (c !== undefined) candidates.push(related(c, raw, known));
  }
  if (items.length > 0 && candidates.length === 0) {
    return { ok: false, error: { code: 'no_valid_memories', message: `none of the ${items.length} memories in the answer was valid` } };
  }
  return { ok: true, candidates, dropped: items.length - candidates.length };
}

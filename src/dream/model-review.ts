/**
 * With a model, the dream's judgement calls go to it in batches: pairs that read alike but whose
 * slots differ (a paraphrase the analysis missed, or two facts that differ in one word). It answers
 * same (merged, the older wording kept), contradiction (the newer supersedes) or distinct. It stays
 * within a per-run input token budget; what it does not answer stays apart.
 */
import { z } from 'zod';
import type { ModelBackend } from '../llm/backend.js';
import { DAILY_BUDGET } from '../llm/metered.js';
import { validateStructured } from '../llm/structured.js';
import { estimateTokens } from '../llm/tokens.js';
import type { Logger } from '../log.js';
import { editedSince } from '../memory/index.js';
import { modelConfirm, type Confirm } from './model-confirm.js';
import type { Plan } from './plan.js';
import type { Pair, Shaped } from './similarity.js';

export interface ModelReview {
  review(
    items: Shaped[],
    pairs: Pair[],
    plan: Plan,
    removed: Set<string>,
  ): Promise<{ batches: number; tokens: { input: number; output: number; budget: number } }>;
  /** Memories whose evidence changed, put to the model (model-confirm.ts). */
  confirm?: Confirm;
}

interface Task {
  key: string;
  a: Shaped;
  b: Shaped;
}

const Verdicts = z.object({
  pairs: z.array(z.object({ key: z.string(), verdict: z.enum(['same', 'contradiction', 'distinct']) })).default([]),
});

const SYSTEM = `You consolidate a coding assistant's long-term memories. For each pair of statements, answer "same" (they state the same fact, in other words), "contradiction" (they cannot both hold; the later one replaced the earlier), or "distinct" (both hold: different facts, even if they differ in one word or value). Give one verdict per pair, by its key.`;
const SCHEMA = {
  type: 'object',
  properties: {
    pairs: {
      type: 'array',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, verdict: { type: 'string', enum: ['same', 'contradiction', 'distinct'] } },
        required: ['key', 'verdict'],
      },
    },
  },
  required: ['pairs'],
};
/** Answers that came back but could not be used: that batch is the heuristics', the next is asked. */
const UNUSABLE = new Set(['empty_answer', 'no_json', 'invalid_json', 'schema_mismatch']);
const BATCH_TOKENS = 6000;
const MAX_OUTPUT = 2048;

function render(t: Task, item: (s: Shaped) => string): string {
  return `pair ${t.key}:\n  earlier: ${item(t.a)}\n  later: ${item(t.b)}`;
}

export function createModelReview(opts: { backend: ModelBackend; budget: number; log: Logger }): ModelReview {
  return {
    async review(items, pairs, plan, removed) {
      const tokens = { input: 0, output: 0, budget: opts.budget };
      const tasks: Task[] = [];
      // Most alike first: if the budget runs out, the likeliest paraphrases were asked about.
      [...pairs]
        .sort((x, y) => y.similarity - x.similarity)
        .forEach((p, i) => {
          const [a, b] = [items[p.a], items[p.b]].sort((x, y) => (x?.memory.lastSeenAt ?? '').localeCompare(y?.memory.lastSeenAt ?? ''));
          if (!a || !b || removed.has(a.memory.id) || removed.has(b.memory.id)) return;
          tasks.push({ key: `p${i}`, a, b });
        });
      const item = (s: Shaped) => `${s.memory.content} (${s.memory.lastSeenAt.slice(0, 10)})`;
      let batches = 0;
      let at = 0;
      const systemTokens = estimateTokens(SYSTEM) + estimateTokens(JSON.stringify(SCHEMA));
      while (at < tasks.length) {
        const batch: Task[] = [];
        let size = systemTokens;
        for (; at < tasks.length; at++) {
          const t = estimateTokens(render(tasks[at] as Task, item));
          if (batch.length > 0 && size + t > BATCH_TOKENS) break;
          size += t;
          batch.push(tasks[at] as Task);
        }
        // chars/4 undercounts: keep a margin so the real count stays within the budget too.
        if (tokens.input + size * 1.25 > opts.budget) {
          opts.log.info({ left: tasks.length - at + batch.length, budget: opts.budget }, 'dream token budget reached; the heuristics decide the rest');
          break;
        }
        batches++;
        const answer = await opts.backend.ask({
          purpose: 'review',
          system: SYSTEM,
          prompt: batch.map((t) => render(t, item)).join('\n\n'),
          schema: SCHEMA,
          maxOutputTokens: MAX_OUTPUT,
        });
        tokens.input += answer.usage?.inputTokens ?? 0;
        tokens.output += answer.usage?.outputTokens ?? 0;
        if (!answer.ok && UNUSABLE.has(answer.code)) {
          opts.log.warn({ reason: answer.code }, 'unusable dream review answer; the heuristics decide this batch');
          continue;
        }
        if (!answer.ok) {
          if (answer.code === DAILY_BUDGET) opts.log.info({ reason: answer.message }, 'dream model review skipped; the heuristics decide');
          else opts.log.warn({ code: answer.code, backend: opts.backend.name }, 'dream model review failed; the heuristics decide');
          break;
        }
        const parsed = validateStructured(answer.value, Verdicts);
        if (!parsed.ok) {
          opts.log.warn({ reason: parsed.error.code }, 'unusable dream review answer; the heuristics decide this batch');
          continue;
        }
        applyVerdicts(batch, parsed.value, plan, removed);
      }
      return { batches, tokens };
    },
    confirm: modelConfirm(opts.backend, opts.log),
  };
}

function applyVerdicts(batch: Task[], v: z.infer<typeof Verdicts>, plan: Plan, removed: Set<string>): void {
  const byKey = new Map(batch.map((t) => [t.key, t]));
  for (const p of v.pairs) {
    const t = byKey.get(p.key);
    if (t === undefined) continue;
    const older = t.a.memory;
    const newer = t.b.memory;
    if (removed.has(older.id) || removed.has(newer.id)) continue;
    if (p.verdict === 'contradiction' && !older.pinned && !editedSince(older, newer.lastSeenAt)) {
      plan.supersede.push({ id: older.id, by: newer.id, at: newer.createdAt, reason: 'contradicted (model verdict)' });
      removed.add(older.id);
    } else if (p.verdict === 'same' && !newer.pinned && newer.editedAt === undefined) {
      // The older statement keeps its words and takes the newer in.
      plan.merges.push({ into: older.id, merged: [newer.id], text: older.content, reason: 'the same statement in other words (model verdict)' });
      removed.add(newer.id);
    }
  }
}

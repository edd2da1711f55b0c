/**
 * With a model, the dream's judgement calls go to it in batches: the wording of each merged
 * cluster, and verdicts on pairs the heuristics are unsure of (near but not duplicates, or the same
 * subject with different values). It stays within a per-run input token budget; whatever the model
 * does not answer, the heuristics decide.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { classifyModelError } from '../llm/errors.js';
import { parseStructured, validateStructured } from '../llm/structured.js';
import { estimateTokens } from '../llm/tokens.js';
import type { Logger } from '../log.js';
import { redact } from '../memory/extract/redact.js';
import type { Plan } from './plan.js';
import { isNearDuplicate, type Pair, type Shaped } from './similarity.js';

export interface ModelReview {
  review(items: Shaped[], pairs: Pair[], plan: Plan, removed: Set<string>): Promise<{ batches: number; tokens: { input: number; output: number; budget: number } }>;
}

type Task =
  | { key: string; kind: 'cluster'; merge: number; statements: { id: string; text: string }[] }
  | { key: string; kind: 'pair'; a: Shaped; b: Shaped };

const Verdicts = z.object({
  clusters: z.array(z.object({ key: z.string(), text: z.string().min(1).max(400) })).default([]),
  pairs: z.array(z.object({ key: z.string(), verdict: z.enum(['same', 'contradiction', 'distinct']) })).default([]),
});

const TOOL = 'record_verdicts';
const SYSTEM = `You consolidate a coding assistant's long-term memories. For each cluster of near-duplicate statements, write one canonical sentence that keeps every detail (values, names, paths) of the cluster. For each pair, answer "same" (they state the same thing), "contradiction" (they cannot both hold; the later one replaced the earlier), or "distinct" (both hold). Answer only with the ${TOOL} tool.`;
const TOOL_DEF: Anthropic.Messages.Tool = {
  name: TOOL,
  description: 'Record the canonical wording of each cluster and a verdict on each pair.',
  input_schema: {
    type: 'object',
    properties: {
      clusters: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, text: { type: 'string' } }, required: ['key', 'text'] } },
      pairs: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, verdict: { type: 'string', enum: ['same', 'contradiction', 'distinct'] } }, required: ['key', 'verdict'] } },
    },
    required: ['clusters', 'pairs'],
  },
};
const BATCH_TOKENS = 6000;
const MAX_OUTPUT = 2048;

function render(t: Task, item: (s: Shaped) => string): string {
  if (t.kind === 'cluster') return `cluster ${t.key}:\n${t.statements.map((s) => `  - ${s.text}`).join('\n')}`;
  return `pair ${t.key}:\n  earlier: ${item(t.a)}\n  later: ${item(t.b)}`;
}

export function createModelReview(opts: { client: Anthropic; model: string; budget: number; log: Logger }): ModelReview {
  return {
    async review(items, pairs, plan, removed) {
      const tokens = { input: 0, output: 0, budget: opts.budget };
      const tasks: Task[] = plan.merges.map((m, i) => ({
        key: `c${i}`,
        kind: 'cluster',
        merge: i,
        statements: [m.into, ...m.merged].flatMap((id) => items.find((x) => x.memory.id === id) ?? []).map((s) => ({ id: s.memory.id, text: s.memory.content })),
      }));
      pairs.forEach((p, i) => {
        const [a, b] = [items[p.a], items[p.b]].sort((x, y) => (x?.memory.lastSeenAt ?? '').localeCompare(y?.memory.lastSeenAt ?? ''));
        if (!a || !b || isNearDuplicate(items, p)) return;
        // A supersession the heuristics planned for this very pair is the model's to confirm.
        const planned = plan.supersede.some((s) => s.id === a.memory.id && s.by === b.memory.id);
        if (!planned && (removed.has(a.memory.id) || removed.has(b.memory.id))) return;
        tasks.push({ key: `p${i}`, kind: 'pair', a, b });
      });
      const item = (s: Shaped) => `${s.memory.content} (${s.memory.lastSeenAt.slice(0, 10)})`;
      let batches = 0;
      let at = 0;
      const systemTokens = estimateTokens(SYSTEM) + estimateTokens(JSON.stringify(TOOL_DEF));
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
        let msg: Anthropic.Messages.Message;
        try {
          msg = await opts.client.messages
            .stream({ model: opts.model, max_tokens: MAX_OUTPUT, system: SYSTEM, tools: [TOOL_DEF], tool_choice: { type: 'tool', name: TOOL }, messages: [{ role: 'user', content: batch.map((t) => render(t, item)).join('\n\n') }] })
            .finalMessage();
        } catch (err) {
          opts.log.warn({ code: classifyModelError(err).code }, 'dream model review failed; the heuristics decide');
          break;
        }
        tokens.input += msg.usage.input_tokens + (msg.usage.cache_read_input_tokens ?? 0) + (msg.usage.cache_creation_input_tokens ?? 0);
        tokens.output += msg.usage.output_tokens;
        const use = msg.content.find((b) => b.type === 'tool_use');
        const textBlock = msg.content.find((b) => b.type === 'text');
        const parsed = use ? validateStructured(use.input, Verdicts) : parseStructured(textBlock?.type === 'text' ? textBlock.text : '', Verdicts);
        if (!parsed.ok) {
          opts.log.warn({ reason: parsed.error.code }, 'unusable dream review answer; the heuristics decide this batch');
          continue;
        }
        applyVerdicts(batch, parsed.value, plan, removed);
      }
      return { batches, tokens };
    },
  };
}

function applyVerdicts(batch: Task[], v: z.infer<typeof Verdicts>, plan: Plan, removed: Set<string>): void {
  const byKey = new Map(batch.map((t) => [t.key, t]));
  for (const c of v.clusters) {
    const t = byKey.get(c.key);
    const merge = t?.kind === 'cluster' ? plan.merges[t.merge] : undefined;
    if (merge) merge.text = redact(c.text).text;
  }
  for (const p of v.pairs) {
    const t = byKey.get(p.key);
    if (t?.kind !== 'pair') continue;
    const older = t.a.memory;
    const newer = t.b.memory;
    const planned = plan.supersede.findIndex((s) => s.id === older.id && s.by === newer.id);
    if (p.verdict === 'distinct' && planned >= 0) {
      plan.supersede.splice(planned, 1);
      removed.delete(older.id);
    } else if (p.verdict === 'contradiction' && planned < 0 && !removed.has(older.id) && !older.pinned) {
      plan.supersede.push({ id: older.id, by: newer.id, at: newer.createdAt, reason: 'contradicted (model verdict)' });
      removed.add(older.id);
    } else if (p.verdict === 'same' && t.a.values === t.b.values && !removed.has(older.id) && !older.pinned) {
      plan.merges.push({ into: newer.id, merged: [older.id], text: newer.content, reason: 'the same statement (model verdict)' });
      removed.add(older.id);
    }
  }
}

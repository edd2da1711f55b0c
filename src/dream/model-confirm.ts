/**
 * With a model, a memory whose evidence changed is put to it with what changed and what the
 * repository holds now: "holds" confirms it (the mark is cleared and its evidence recorded anew, as
 * when the person says it again); "outdated" and "unsure" leave the mark for the person. Within what
 * is left of the dream's token budget; what is not asked stays marked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Memory } from '../api/memory.js';
import type { ModelBackend } from '../llm/backend.js';
import { validateStructured } from '../llm/structured.js';
import { estimateTokens } from '../llm/tokens.js';
import type { Logger } from '../log.js';

export interface ToConfirm {
  memory: Memory;
  reason: string;
}

export type Confirm = (items: ToConfirm[], budget: number) => Promise<{ held: string[]; tokens: { input: number; output: number } }>;

const SYSTEM = `You keep a coding assistant's long-term memories about a code repository true. Each memory below rests on something in the repository that changed since it was said: you are told what changed and shown what the repository holds now. Answer per memory, by its key: "holds" (still true as written), "outdated" (no longer true), or "unsure".`;
const SCHEMA = {
  type: 'object',
  properties: {
    memories: {
      type: 'array',
      items: {
        type: 'object',
        properties: { key: { type: 'string' }, verdict: { type: 'string', enum: ['holds', 'outdated', 'unsure'] } },
        required: ['key', 'verdict'],
      },
    },
  },
  required: ['memories'],
};
const Verdicts = z.object({ memories: z.array(z.object({ key: z.string(), verdict: z.enum(['holds', 'outdated', 'unsure']) })).default([]) });
const EXCERPT_CHARS = 1500;
const BATCH_TOKENS = 6000;

/** What the files a memory rests on hold now (their first lines). */
function excerpts(m: Memory): string {
  const out: string[] = [];
  for (const path of new Set((m.evidence ?? []).filter((e) => e.kind !== 'dir' && e.gone !== true).map((e) => e.path))) {
    try {
      out.push(
        `  ${path} now:\n${readFileSync(join(m.project ?? '', path), 'utf8')
          .slice(0, EXCERPT_CHARS)
          .replace(/^/gm, '    ')}`,
      );
    } catch {
      out.push(`  ${path} no longer exists`);
    }
  }
  return out.join('\n');
}

export function modelConfirm(backend: ModelBackend, log: Logger): Confirm {
  return async (items, budget) => {
    const tokens = { input: 0, output: 0 };
    const held: string[] = [];
    const rendered = items.map((x, i) => ({
      key: `m${i}`,
      id: x.memory.id,
      text: `memory m${i}: ${x.memory.content}\n  changed: ${x.reason}\n${excerpts(x.memory)}`,
    }));
    let at = 0;
    while (at < rendered.length) {
      const batch: typeof rendered = [];
      let size = estimateTokens(SYSTEM) + estimateTokens(JSON.stringify(SCHEMA));
      for (; at < rendered.length; at++) {
        const t = estimateTokens((rendered[at] as (typeof rendered)[number]).text);
        if (batch.length > 0 && size + t > BATCH_TOKENS) break;
        size += t;
        batch.push(rendered[at] as (typeof rendered)[number]);
      }
      // chars/4 undercounts: the same margin as the pair review.
      if (tokens.input + size * 1.25 > budget) break;
      const answer = await backend.ask({
        purpose: 'review',
        system: SYSTEM,
        prompt: batch.map((b) => b.text).join('\n\n'),
        schema: SCHEMA,
        maxOutputTokens: 2048,
      });
      tokens.input += answer.usage?.inputTokens ?? 0;
      tokens.output += answer.usage?.outputTokens ?? 0;
      if (!answer.ok) {
        log.warn({ code: answer.code, backend: backend.name }, 'the model could not confirm memories whose evidence changed; they stay marked');
        break;
      }
      const parsed = validateStructured(answer.value, Verdicts);
      if (!parsed.ok) continue;
      const byKey = new Map(batch.map((b) => [b.key, b.id]));
      for (const v of parsed.value.memories) if (v.verdict === 'holds' && byKey.has(v.key)) held.push(byKey.get(v.key) as string);
    }
    return { held, tokens };
  };
}

/**
 * The one memory schema a model answers in, whichever backend asks: defined once with zod, and
 * the JSON Schema the backend is given (a forced tool's input, `claude --json-schema`, codex's
 * `--output-schema`) derived from it. An answer is checked as a whole (a list of memories, else the
 * session falls back), then each memory on its own: a bad one is dropped, the rest kept.
 */
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { MEMORY_TYPES } from '../../api/memory.js';

/** "C3", "[C3]", "3" and 3 all cite candidate 3; anything else cites nothing. */
function candidateNumbers(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return v.flatMap((x) => {
    const n = typeof x === 'number' ? x : typeof x === 'string' ? Number(x.trim().replace(/^\[?C?|\]$/gi, '')) : Number.NaN;
    return Number.isInteger(n) ? [n] : [];
  });
}

/** What the model is asked for: every field but the references to stored memories required. */
const Item = z.object({
  content: z.string().describe('One crisp, self-contained sentence.'),
  type: z.enum(MEMORY_TYPES),
  scope: z.enum(['user', 'project']).describe('"user" only when the person spoke about themselves in general.'),
  stable: z.boolean().describe('false for time-bound statements.'),
  from: z.preprocess(candidateNumbers, z.array(z.number().int())).describe('Numbers of the candidates it comes from (3 for C3).'),
  same: z.string().optional().describe('The stored memory it restates (K1, K2…).'),
  replaces: z.array(z.string()).optional().describe('Stored memories it changes (K1…), or the old things an explicit change replaces.'),
});

/** What is taken: a missing or unknown type, scope or stability gets the usual default, not a drop. */
export const MemoryItem = Item.extend({
  type: Item.shape.type.catch('note'),
  scope: Item.shape.scope.catch('project'),
  stable: Item.shape.stable.catch(true),
});
export type MemoryItem = z.infer<typeof MemoryItem>;

/** The answer as a whole: its items are checked one by one (MemoryItem). */
export const Answer = z.object({ memories: z.array(z.unknown()) });

function jsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = zodToJsonSchema(z.object({ memories: z.array(Item) }), {
    $refStrategy: 'none',
    effectStrategy: 'input',
  }) as Record<string, unknown>;
  return schema;
}

/** What the backend is told the answer looks like. */
export const ANSWER_SCHEMA: Record<string, unknown> = jsonSchema();

/**
 * The heuristic extractor's misses on the TUNING half of the corpus, for whoever changes its rules:
 *
 *   npx tsx test/memory/extract/heuristic-tune.ts
 *
 * A report, not a test (it always exits 0): the tests assert on the held-out half only.
 */
import { extractHeuristic } from '../../../src/memory/extract/heuristic.js';
import { NEGATIVE, POSITIVE, type Positive } from './heuristic-corpus-tuning.js';

const extract = (text: string) =>
  extractHeuristic({ sessionId: 'tune', project: '/repo', messages: [{ id: 'm1', role: 'user', kind: 'text', origin: 'typed', text }], maxMemories: 20 })
    .candidates;

function miss(p: Positive): string | undefined {
  const got = extract(p.text);
  if (got.length !== 1) return `${got.length} memories`;
  const c = got[0];
  if (!c) return 'none';
  const want = { type: p.type, scope: p.scope, stable: p.stable ?? true, replaces: p.replaces };
  const have = { type: c.type, scope: c.scope, stable: c.stable, replaces: c.replaces };
  if (JSON.stringify(want) !== JSON.stringify(have)) return `got ${JSON.stringify(have)}, want ${JSON.stringify(want)}`;
  if (p.content !== undefined && c.content !== p.content) return `content ${JSON.stringify(c.content)}`;
  return undefined;
}

const posMisses = POSITIVE.map((p) => [p.text, miss(p)] as const).filter(([, m]) => m !== undefined);
const negMisses = NEGATIVE.map((t) => [t, extract(t)] as const).filter(([, got]) => got.length > 0);
for (const [t, m] of posMisses) console.log(`positive missed: ${JSON.stringify(t)}: ${m}`);
for (const [t, got] of negMisses) console.log(`negative extracted: ${JSON.stringify(t)} → ${got.map((c) => `${c.type}: ${c.content}`).join(' | ')}`);
console.log(
  `tuning half: ${POSITIVE.length - posMisses.length}/${POSITIVE.length} positives right, ${NEGATIVE.length - negMisses.length}/${NEGATIVE.length} negatives left alone`,
);

/**
 * Secret detection: the corpus figures (secrets redacted, look-alikes touched, what the secretlint
 * preset finds alone), the corpus as a session (every secret typed, run as a shell command that
 * fails, and each key split across two messages) through the ingest's one pass into every surface
 * it writes (episodes, digest, state record, memories), and the cost of `redact` and of the preset,
 * per sentence and per MB, beside the preset run through `@secretlint/core`'s own `lintSource`.
 * Run: `npx tsx bench/secrets.ts` (no build, no daemon). Figures are in BENCHMARKS.md.
 */
import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { performance } from 'node:perf_hooks';
import { redact } from '../src/redact/redact.js';
import { lintSecrets } from '../src/redact/secretlint.js';
import { DigestBuilder, emptyDigest } from '../src/memory/digest/build.js';
import { extractOffline } from '../src/memory/extract/offline.js';
import { episodeOf, forExtraction } from '../src/memory/ingest/ingest-messages.js';
import { maskedMessages } from '../src/memory/ingest/masked-messages.js';
import { emptySessionState, StateBuilder } from '../src/memory/state/index.js';
import type { ExtractMessage } from '../src/memory/extract/types.js';
import type { TranscriptMessage } from '../src/memory/transcripts/types.js';
import { LOOKALIKES } from '../test/fixtures/secrets/lookalikes.js';
import { SECRETS } from '../test/fixtures/secrets/secrets.js';

const SENTENCES = [
  'Remember that the staging deploy runs on port 8080 and the release script lives in scripts/release.sh.',
  'Fix the failing test in src/invoice.ts please, the rounding is off by one cent.',
  'We use vitest, not jest; run it with npx vitest run test/memory before you commit.',
  'The GitHub token needs the repo and workflow scopes, ask the admin if yours does not.',
  'Fixed the token refresh race in 9fceb02d0ae598e95dc970b74767f19372d61af8 on main.',
  'const client = new ApiClient({ socket: paths.socket, timeoutMs: 5000 });',
  'I prefer short answers without bullet lists, and always show the diff before applying it.',
  '"integrity": "sha512-D1pTrJDJX8IuLSzX4C3kbeZq7R7l1B0Zk3bL2m5oX8W9m0kPz4P1j0Pq3o2F3nQ=="',
];

/** Text made of the sentences (and, every 50th line, a corpus secret) up to `bytes`. */
function transcript(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = i % 50 === 49 ? (SECRETS[i % SECRETS.length]?.text ?? '') : (SENTENCES[i % SENTENCES.length] ?? '');
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

function perCall(fn: (s: string) => unknown, texts: string[], rounds: number): number {
  for (const t of texts) fn(t); // warm-up
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) fn(t);
  return (performance.now() - started) / (rounds * texts.length);
}

async function perCallAsync(fn: (s: string) => Promise<unknown>, texts: string[], rounds: number): Promise<number> {
  for (const t of texts) await fn(t);
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) await fn(t);
  return (performance.now() - started) / (rounds * texts.length);
}

const config = {
  rules: rules
    .filter((r) => !/filter-comments|-gcp$/.test(r.meta.id))
    .map((r) => ({ id: r.meta.id, rule: r, options: r.meta.id.endsWith('-aws') ? { enableIDScanRule: true } : {} })),
};
const viaCore = (text: string) =>
  lintSource({ source: { content: text, filePath: 'm.txt', ext: '.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } });

const ms = (n: number) => `${n.toFixed(3)} ms`;

/** The corpus as one session's messages: each text typed, and run as a failing shell command; a split key also across two messages. */
function session(): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  const base = { role: 'user', kind: 'text', origin: 'typed' } as const;
  SECRETS.forEach((c, i) => {
    out.push({ ...base, id: `t${i}`, text: c.text });
    out.push({
      id: `u${i}`,
      role: 'assistant',
      kind: 'tool_use',
      origin: 'assistant',
      text: `Bash(${c.text.slice(0, 180)})`,
      toolUseId: `c${i}`,
      command: c.text,
    });
    out.push({ id: `r${i}`, role: 'user', kind: 'tool_result', origin: 'tool', text: `error: ${c.text}`, toolUseId: `c${i}`, command: c.text, isError: true });
    const [a, b] = c.text.split('\n');
    if (c.values.length === 2 && a !== undefined && b !== undefined) {
      out.push(
        { ...base, id: `a${i}`, text: a },
        { id: `x${i}`, role: 'assistant', kind: 'text', origin: 'assistant', text: 'That looks cut off.' },
        { ...base, id: `b${i}`, text: b },
      );
    }
  });
  return out;
}

/** Every surface the ingest writes of that session, and the secret values found in each. */
async function surfaces(): Promise<Record<string, number>> {
  const digest = new DigestBuilder(emptyDigest({ key: 'k', sessionId: 'bench', project: '/srv/app' }));
  const state = new StateBuilder(emptySessionState('k', 'bench'));
  const episodes: string[] = [];
  const extract: ExtractMessage[] = [];
  async function* source() {
    yield* session();
  }
  for await (const m of maskedMessages(source())) {
    digest.add(m);
    state.add(m);
    const e = episodeOf(m);
    if (e) episodes.push(e.text);
    const x = forExtraction(m);
    if (x) extract.push(x);
  }
  const memories = extractOffline({ sessionId: 'bench', messages: extract, maxMemories: 500, related: () => [] }).proposals.map((p) => redact(p.text).text);
  const texts: Record<string, string> = {
    episodes: episodes.join('\n'),
    digest: JSON.stringify(digest.result(new Date().toISOString(), '/srv/app')),
    state: JSON.stringify(state.result()),
    memories: memories.join('\n'),
  };
  const values = SECRETS.flatMap((c) => c.values);
  return Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, values.filter((v) => t.includes(v)).length]));
}

async function main(): Promise<void> {
  const redacted = SECRETS.filter((c) => !c.values.some((v) => redact(c.text).text.includes(v))).length;
  const touched = LOOKALIKES.filter((c) => redact(c.text).found.length > 0).length;
  // Personal data in the look-alikes (a /home/NAME path, a phone number) is masked by design, not as a secret.
  const personal = LOOKALIKES.filter((c) => redact(c.text).personal.length > 0).length;
  const byPreset = SECRETS.filter((c) => {
    const hits = lintSecrets(c.text);
    return c.values.every((v) => {
      const at = c.text.indexOf(v);
      return hits.some((h) => h.start <= at && at + v.length <= h.end);
    });
  }).length;
  console.log(`corpus: secrets redacted ${redacted}/${SECRETS.length} (${((100 * redacted) / SECRETS.length).toFixed(1)} %)`);
  console.log(`corpus: look-alikes touched ${touched}/${LOOKALIKES.length} (${((100 * touched) / LOOKALIKES.length).toFixed(1)} %)`);
  console.log(`corpus: look-alikes holding personal data, masked as such ${personal}/${LOOKALIKES.length}`);
  console.log(`corpus: the secretlint preset alone covers ${byPreset}/${SECRETS.length} secrets`);
  const left = await surfaces();
  console.log(`corpus as a session (${session().length} messages): secret values left per surface ${JSON.stringify(left)}`);

  const mb = transcript(1_000_000);
  const lines = mb.split('\n');
  console.log(`redact, per sentence (${SENTENCES.length} ordinary sentences): ${ms(perCall(redact, SENTENCES, 500))}`);
  console.log(`redact, per MB in one call: ${ms(perCall(redact, [mb], 3))}`);
  console.log(`redact, per MB one line at a time (${lines.length} calls, as episodes are): ${ms(perCall(redact, lines, 3) * lines.length)}`);
  console.log(`preset run synchronously (layer 1), per sentence: ${ms(perCall(lintSecrets, SENTENCES, 500))}`);
  console.log(`preset run synchronously (layer 1), per MB: ${ms(perCall(lintSecrets, [mb], 3))}`);
  console.log(`preset through @secretlint/core lintSource, per sentence: ${ms(await perCallAsync(viaCore, SENTENCES, 100))}`);
  console.log(`preset through @secretlint/core lintSource, per MB: ${ms(await perCallAsync(viaCore, [mb], 3))}`);
  // lintSource's always-on profiler keeps a PerformanceObserver alive: leave explicitly.
  process.exit(0);
}

await main();

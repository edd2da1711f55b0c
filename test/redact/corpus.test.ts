/**
 * The secret corpus (test/fixtures/secrets/): every secret redacted, at most 1 % of the look-alikes
 * touched. Prints both figures (BENCHMARKS.md, "Secret detection", records them).
 */
import { lintSource } from '@secretlint/core';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/redact/redact.js';
import { lintSecrets } from '../../src/redact/secretlint.js';
import { LOOKALIKES } from '../fixtures/secrets/lookalikes.js';
import { SECRETS } from '../fixtures/secrets/secrets.js';

const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;

describe('the secret corpus', () => {
  it('has at least 150 secrets and 150 look-alikes, each shape a real case', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(150);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(150);
    for (const c of SECRETS) for (const v of c.values) expect(c.text).toContain(v);
  });

  it('redacts 100 % of the secrets', () => {
    const missed = SECRETS.filter((c) => {
      const out = redact(c.text).text;
      return c.values.some((v) => out.includes(v));
    });
    const redacted = SECRETS.length - missed.length;
    console.log(`secrets redacted: ${redacted}/${SECRETS.length} (${pct(redacted, SECRETS.length)})`);
    expect(missed.map((c) => `${c.shape}: ${c.text}`)).toEqual([]);
  });

  it('touches at most 1 % of the look-alikes', () => {
    // A secret mask; the personal data some look-alikes hold (a /home/NAME path, a phone number) is masked by design.
    const touched = LOOKALIKES.filter((c) => redact(c.text).found.length > 0);
    console.log(`look-alikes touched: ${touched.length}/${LOOKALIKES.length} (${pct(touched.length, LOOKALIKES.length)})`);
    for (const c of touched) console.log(`  touched: ${c.shape}: ${redact(c.text).text}`);
    expect(touched.length / LOOKALIKES.length).toBeLessThanOrEqual(0.01);
  });

  it('is idempotent on the corpus', () => {
    for (const c of [...SECRETS, ...LOOKALIKES]) {
      const once = redact(c.text).text;
      expect(redact(once).text).toBe(once);
    }
  });
});

describe('layer 1: the secretlint preset, run synchronously', () => {
  // The reference: the same rules through @secretlint/core's own (async) lintSource.
  const config = {
    rules: rules
      .filter((r) => !/filter-comments|-gcp$/.test(r.meta.id))
      .map((r) => ({ id: r.meta.id, rule: r, options: r.meta.id.endsWith('-aws') ? { enableIDScanRule: true } : {} })),
  };
  // Core drops a report inside another one's range; what is compared is the characters covered.
  const covered = (ranges: ReadonlyArray<readonly [number, number]>): number[] =>
    [...new Set(ranges.flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i)))].sort((a, b) => a - b);
  const viaCore = async (text: string) =>
    covered(
      (
        await lintSource({ source: { content: text, filePath: 'm.txt', ext: '.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } })
      ).messages.map((m) => m.range),
    );

  it('finds what @secretlint/core finds, on every text of the corpus', async () => {
    let found = 0;
    for (const c of [...SECRETS, ...LOOKALIKES]) {
      const sync = lintSecrets(c.text);
      found += sync.length;
      expect(covered(sync.map((h) => [h.start, h.end] as const)), c.shape).toEqual(await viaCore(c.text));
    }
    expect(found).toBeGreaterThan(20); // the comparison means something only if the preset finds things
  });
});

/** A fit written elsewhere (NIGHTSHIFT_RANKER_WEIGHTS) is used, and checked as the built-in one is. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  delete process.env.NIGHTSHIFT_RANKER_WEIGHTS;
  vi.resetModules();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const builtIn = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../src/memory/rank/weights.json'), 'utf8')) as Record<string, unknown>;

async function loadWith(weights: unknown): Promise<typeof import('../../../src/memory/rank/weights.js')> {
  const dir = mkdtempSync(join(tmpdir(), 'ns-weights-'));
  dirs.push(dir);
  const file = join(dir, 'weights.json');
  writeFileSync(file, JSON.stringify(weights));
  process.env.NIGHTSHIFT_RANKER_WEIGHTS = file;
  vi.resetModules();
  return import('../../../src/memory/rank/weights.js');
}

describe('ranker weights', () => {
  it('uses the fit NIGHTSHIFT_RANKER_WEIGHTS names', async () => {
    const w = await loadWith({ ...builtIn(), floor: 0.123, perSession: 5 });
    expect(w.rankerWeights().floor).toBe(0.123);
    expect(w.rankerWeights().perSession).toBe(5);
  });

  it('refuses a fit made for another feature list, saying how to make one', async () => {
    const other = builtIn();
    const w = await loadWith({ ...other, features: (other.features as string[]).slice(1) });
    expect(() => w.rankerWeights()).toThrow(/fitted for other features; run npm run fit:ranker/);
  });
});

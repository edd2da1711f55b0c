/**
 * Honest engines: every package `npm install` puts in node_modules accepts the Node versions the
 * project's own `engines` promises (its lowest, and the one running the tests), so an install on
 * Node 20 says no EBADENGINE. Ranges are read with a small reader of the forms the lockfile holds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

type Version = [number, number, number];

function parts(v: string): (number | null)[] {
  return v
    .replace(/^v/, '')
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : null));
}

function cmp(a: Version, b: (number | null)[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `v` satisfies one comparator: `>=1.2`, `>1`, `^18.18.0`, `20`, `20.x`, `*`. */
function comparator(v: Version, c: string): boolean {
  if (c === '' || c === '*' || c === 'x') return true;
  const m = /^(>=|>|<=|<|\^|~|=)?(.*)$/.exec(c);
  const [op, ver] = [m?.[1] ?? '', parts(m?.[2] ?? '')];
  if (ver.length === 0 || ver[0] === null) throw new Error(`unread range "${c}"`);
  switch (op) {
    case '>=':
      return cmp(v, ver) >= 0;
    case '>':
      return cmp(v, ver) > 0;
    case '<=':
      return cmp(v, ver) <= 0;
    case '<':
      return cmp(v, ver) < 0;
    case '^':
      return v[0] === ver[0] && cmp(v, ver) >= 0;
    case '~':
      return v[0] === ver[0] && v[1] === (ver[1] ?? v[1]) && cmp(v, ver) >= 0;
    default:
      // `20`, `20.x`, `20.1.*`: every part given must match.
      return ver.every((p, i) => p === null || p === v[i]);
  }
}

function satisfies(version: string, range: string): boolean {
  const [a = 0, b = 0, c = 0] = parts(version).map((p) => p ?? 0);
  const v: Version = [a, b, c];
  return range.split('||').some((alt) =>
    alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((c) => comparator(v, c)),
  );
}

describe('engines', () => {
  it('reads the range forms the lockfile holds', () => {
    expect(satisfies('20.19.0', '>=22.0.0')).toBe(false);
    expect(satisfies('20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies('20.19.0', '^20.12||^22||>=24')).toBe(true);
    expect(satisfies('20.19.0', '10.* || 12.* || >= 14.*')).toBe(true);
    expect(satisfies('20.19.0', '>= 20.19.0')).toBe(true);
    expect(satisfies('20.18.9', '>= 20.19.0')).toBe(false);
  });

  it('every installed package accepts the lowest Node the project supports and the one running', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const lowest = /^>=\s*([\d.]+)$/.exec(pkg.engines.node)?.[1];
    expect(lowest, 'engines.node is a ">=" range').toBeDefined();
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      // Only what is installed here (another platform's optional binaries are not).
      if (path === '' || range === undefined || !existsSync(join(ROOT, path))) continue;
      for (const node of [lowest ?? '', process.version]) if (!satisfies(node, range)) refused.push(`${path}@${p.version}: node ${range} (not ${node})`);
    }
    expect(refused).toEqual([]);
  });
});

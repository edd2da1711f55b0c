import { describe, expect, it } from 'vitest';
import { applySnip, defaultClassify, DEFAULT_SNIP } from '../../../src/agent/context/snip.js';
import { PLACEHOLDER_PREFIX } from '../../../src/agent/context/blocks.js';
import { allText, call, filler, textOf, user } from './helpers.js';

describe('tier snip', () => {
  it('classifies common read and search tools', () => {
    expect(defaultClassify('read_file', { path: 'a.ts' })).toEqual({ kind: 'read', path: 'a.ts' });
    expect(defaultClassify('Read', { file_path: 'a.ts', offset: 10, limit: 5 })).toEqual({ kind: 'read', path: 'a.ts', range: 'offset=10,limit=5' });
    expect(defaultClassify('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.ts' })).toEqual({ kind: 'other' });
    expect(defaultClassify('grep', { pattern: 'x' }).kind).toBe('search');
    expect(defaultClassify('bash', { command: 'ls' }).kind).toBe('other');
  });

  it('snips an older read of a file read again later, keeping the tool_use', () => {
    const h = [
      user('task'),
      ...call('r1', 'read_file', { path: 'src/a.ts' }, filler(3000, 'v1')),
      ...call('r2', 'read_file', { path: 'src/b.ts' }, filler(3000, 'b')),
      ...call('r3', 'read_file', { path: 'src/a.ts' }, filler(3000, 'v2')),
      user('go on'),
    ];
    const r = applySnip(h, DEFAULT_SNIP, 7);
    expect(r).toMatchObject({ tier: 'snip', blocks: 1 });
    expect(textOf(h, 'r1').startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(textOf(h, 'r1')).toContain('src/a.ts');
    expect(textOf(h, 'r2')).toContain('b lorem');
    expect(textOf(h, 'r3')).toContain('v2 lorem');
    expect(allText(h)).toContain('"id":"r1"'); // the tool_use is still there
  });

  it('a later partial read does not make a full one stale; a later full read makes a partial one stale', () => {
    const h = [
      user('t'),
      ...call('full', 'read_file', { path: 'a' }, filler(2000)),
      ...call('part', 'read_file', { path: 'a', offset: 1, limit: 10 }, filler(500)),
      user('x'),
    ];
    expect(applySnip(h, DEFAULT_SNIP, 5).blocks).toBe(0);
    const h2 = [
      user('t'),
      ...call('part', 'read_file', { path: 'a', offset: 1, limit: 10 }, filler(500)),
      ...call('full', 'read_file', { path: 'a' }, filler(2000)),
      user('x'),
    ];
    expect(applySnip(h2, DEFAULT_SNIP, 5).blocks).toBe(1);
  });

  it('keeps only the 3 newest search results', () => {
    const h = [user('t')];
    for (let i = 1; i <= 5; i++) h.push(...call(`s${i}`, 'grep', { pattern: `p${i}` }, filler(1000, `s${i}`)));
    h.push(user('x'));
    expect(applySnip(h, DEFAULT_SNIP, h.length - 1).blocks).toBe(2);
    expect(textOf(h, 's1').startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(textOf(h, 's2').startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(textOf(h, 's3')).toContain('s3 lorem');
    expect(applySnip(h, DEFAULT_SNIP, h.length - 1).blocks).toBe(0); // idempotent
  });

  it("takes a classifier for the loop's own tools", () => {
    const h = [user('t'), ...call('a', 'fetch_doc', { id: 'D1' }, filler(1000)), ...call('b', 'fetch_doc', { id: 'D1' }, filler(1000)), user('x')];
    const classify = (name: string, input: unknown) =>
      name === 'fetch_doc' ? { kind: 'read' as const, path: String((input as { id: string }).id) } : { kind: 'other' as const };
    expect(applySnip(h, { ...DEFAULT_SNIP, classify }, 5).blocks).toBe(1);
  });
});

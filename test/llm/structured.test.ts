import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonCandidates, parseStructured, stripTrailingCommas, validateStructured } from '../../src/llm/structured.js';

const Schema = z.object({ memories: z.array(z.object({ content: z.string() })) });
const opts = { arrayKey: 'memories' };
const ok = { memories: [{ content: 'Use pnpm.' }] };

describe('parseStructured', () => {
  it('reads plain JSON', () => {
    expect(parseStructured(JSON.stringify(ok), Schema)).toEqual({ ok: true, value: ok });
  });

  it('reads a fenced json block with prose around it', () => {
    const text = `Here are the memories:\n\n\`\`\`json\n${JSON.stringify(ok, null, 2)}\n\`\`\`\n\nLet me know if you need more.`;
    expect(parseStructured(text, Schema)).toEqual({ ok: true, value: ok });
  });

  it('reads an untagged fence', () => {
    expect(parseStructured('```\n{"memories": []}\n```', Schema)).toEqual({ ok: true, value: { memories: [] } });
  });

  it('prefers a json-tagged fence over another fence', () => {
    const text = '```ts\nconst x = {"memories": 1};\n```\n```json\n{"memories": [{"content": "b"}]}\n```';
    expect(parseStructured(text, Schema)).toEqual({ ok: true, value: { memories: [{ content: 'b' }] } });
  });

  it('finds JSON wrapped in prose, past brackets that are not JSON', () => {
    const text = 'I looked at [u1] and [a2] {not json}. Result: {"memories": [{"content": "has } and ] inside"}]} — done.';
    expect(parseStructured(text, Schema)).toEqual({ ok: true, value: { memories: [{ content: 'has } and ] inside' }] } });
  });

  it('wraps a bare array under arrayKey', () => {
    expect(parseStructured('Memories: [{"content": "Use pnpm."}]', Schema, opts)).toEqual({ ok: true, value: ok });
    expect(parseStructured('[{"content": "Use pnpm."}]', Schema).ok).toBe(false);
  });

  it('tolerates trailing commas', () => {
    expect(parseStructured('{"memories": [{"content": "Use pnpm.",},],}', Schema)).toEqual({ ok: true, value: ok });
  });

  it('skips a first JSON value of the wrong shape for a later right one', () => {
    const text = 'Input was {"session": "s1"}; output: {"memories": [{"content": "Use pnpm."}]}';
    expect(parseStructured(text, Schema)).toEqual({ ok: true, value: ok });
  });

  it('reports an empty answer', () => {
    const r = parseStructured('  \n ', Schema);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('empty_answer');
  });

  it('reports prose without JSON', () => {
    const r = parseStructured('There is nothing worth remembering in this session.', Schema);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('no_json');
  });

  it('reports broken JSON without quoting it', () => {
    const r = parseStructured('{"memories": [{"content": "SECRET-ish text', Schema);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_json');
      expect(r.error.message).not.toContain('SECRET');
    }
  });

  it('reports a schema mismatch with paths, not values', () => {
    const r = parseStructured('{"memories": [{"content": 42, "note": "private words"}]}', Schema);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('schema_mismatch');
      expect(r.error.message).toContain('memories.0.content');
      expect(r.error.message).not.toContain('private');
    }
  });

  it('stays fast on prose full of unmatched brackets', () => {
    const text = '{['.repeat(20_000) + ' {"memories": []}';
    const started = performance.now();
    parseStructured(text, Schema);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('helpers', () => {
  it('stripTrailingCommas leaves commas inside strings', () => {
    expect(stripTrailingCommas('{"a": "x,]", "b": [1,2,],}')).toBe('{"a": "x,]", "b": [1,2]}');
  });

  it('validateStructured validates an already parsed value', () => {
    expect(validateStructured([{ content: 'Use pnpm.' }], Schema, opts)).toEqual({ ok: true, value: ok });
    expect(validateStructured({ memories: 'no' }, Schema).ok).toBe(false);
  });

  it('jsonCandidates lists every parsable object in order', () => {
    expect(jsonCandidates('a {"x": 1} b [2, 3] c').values).toEqual([{ x: 1 }, [2, 3]]);
  });
});

import { describe, expect, it } from 'vitest';
import { editJsonText, editJsonValue, type JsonEdit } from '../../src/integrate/json-edit.js';

const texts: Record<string, string> = {
  pretty: '{\n  "a": 1,\n  "list": [\n    1,\n    2\n  ],\n  "obj": {\n    "x": true\n  }\n}\n',
  compact: '{"a":1,"list":[1, 2],"obj":{"x":true}}',
  tabsCrlf: '{\r\n\t"a" : 1,\r\n\t"list" : [1,2],\r\n\t"obj" : {\r\n\t\t"x" : true\r\n\t}\r\n}\r\n',
  emptyOnes: '{ "a": 1, "list": [], "obj": {} }',
  oddSpacing: '{\n    "a":1 ,\n        "list":[ 1 ,2 ]   ,\n  "obj" :{"x":true}\n}',
};

describe('JSON text edits', () => {
  for (const [name, text] of Object.entries(texts)) {
    it(`means what the same edits mean on the value, and appends come off byte for byte (${name})`, () => {
      const value = JSON.parse(text) as Record<string, unknown>;
      const appends: JsonEdit[] = [
        { path: ['added'], value: { deep: [1, { y: 'z' }] } },
        { path: ['list', (value.list as unknown[]).length], value: { item: 3 } },
        { path: ['obj', 'new'], value: 'v' },
      ];
      const added = editJsonText(text, appends);
      expect(JSON.parse(added)).toEqual(editJsonValue(value, appends));
      // Only what was added is new: every byte of the original is still there, in order.
      let at = 0;
      for (const ch of text) {
        at = added.indexOf(ch, at) + 1;
        expect(at).toBeGreaterThan(0);
      }
      const removals: JsonEdit[] = [
        { path: ['obj', 'new'], remove: true },
        { path: ['list', (value.list as unknown[]).length], remove: true },
        { path: ['added'], remove: true },
      ];
      expect(editJsonText(added, removals)).toBe(text);
    });
  }

  it('replaces a value in place and removes first, middle and last entries', () => {
    const text = '{\n  "k": [\n    "a",\n    "b",\n    "c"\n  ],\n  "s": "old"\n}\n';
    expect(editJsonText(text, [{ path: ['s'], value: 'new' }])).toBe(text.replace('"old"', '"new"'));
    expect(JSON.parse(editJsonText(text, [{ path: ['k', 0], remove: true }])).k).toEqual(['b', 'c']);
    expect(JSON.parse(editJsonText(text, [{ path: ['k', 1], remove: true }])).k).toEqual(['a', 'c']);
    expect(
      JSON.parse(
        editJsonText(text, [
          { path: ['k', 2], remove: true },
          { path: ['k', 1], remove: true },
          { path: ['k', 0], remove: true },
        ]),
      ).k,
    ).toEqual([]);
    expect(JSON.parse(editJsonText(text, [{ path: ['k'], remove: true }]))).toEqual({ s: 'old' });
  });
});

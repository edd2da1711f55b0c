import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTable, withApiTable } from '../../scripts/api-table.js';
import { ENDPOINTS, pathOf } from '../../src/api/endpoints.js';

describe('the endpoint table', () => {
  it('is what docs/api.md documents (run `npm run docs:api` after changing it)', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(withApiTable(doc)).toBe(doc);
    for (const e of Object.values(ENDPOINTS)) expect(apiTable()).toContain(`| \`${e.method}\` | \`${e.path}\` |`);
  });

  it('has one endpoint per method and path, and a validator for every path parameter', () => {
    const keys = Object.values(ENDPOINTS).map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of Object.values(ENDPOINTS)) {
      const names = [...e.path.matchAll(/:([a-z]+)/g)].map((m) => m[1]);
      expect(Object.keys('params' in e ? e.params : {}).sort(), e.path).toEqual(names.sort());
    }
  });

  it('makes concrete paths with each parameter percent-encoded', () => {
    expect(pathOf(ENDPOINTS.taskOutput.path, { id: '12' })).toBe('/v1/tasks/12/output');
    expect(pathOf(ENDPOINTS.getTask.path, { id: '../x' })).toBe('/v1/tasks/..%2Fx');
  });
});

import { describe, expect, it } from 'vitest';
import { restoreOptional, toStrictSchema } from '../../../src/llm/backends/strict-schema.js';
import { strictSchemaProblem } from '../../fakes/openai-responses.js';
import { RECORD_TOOL } from '../../../src/memory/extract/llm-prompt.js';

describe('strict schemas for codex --output-schema', () => {
  it('makes memory extraction’s tool schema one strict mode accepts, optional properties nullable', () => {
    const loose = RECORD_TOOL.input_schema as Record<string, unknown>;
    expect(strictSchemaProblem(loose)).toMatch(/additionalProperties/);
    const strict = toStrictSchema(loose);
    expect(strictSchemaProblem(strict)).toBeUndefined();
    const item = (strict.properties as { memories: { items: { properties: Record<string, unknown>; required: string[] } } }).memories.items;
    expect(item.required).toContain('replaces');
    expect(item.properties.replaces).toMatchObject({ type: ['array', 'null'] });
    expect(item.properties.content).toMatchObject({ type: 'string' });
  });

  it('nullable enums and untyped properties; the nulls of optional properties go, those of required ones stay', () => {
    const schema = {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['a', 'b'] }, any: { description: 'anything' }, must: { type: ['string', 'null'] } },
      required: ['must'],
    };
    const strict = toStrictSchema(schema);
    expect(strict.properties).toEqual({
      kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
      any: { anyOf: [{ description: 'anything' }, { type: 'null' }] },
      must: { type: ['string', 'null'] },
    });
    expect(restoreOptional({ kind: null, any: null, must: null }, schema)).toEqual({ must: null });
    expect(restoreOptional([{ kind: null }], { type: 'array', items: schema })).toEqual([{}]);
  });
});

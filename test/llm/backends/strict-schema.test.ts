import { describe, expect, it } from 'vitest';
import { restoreOptional, toStrictSchema } from '../../../src/llm/backends/strict-schema.js';
import { strictSchemaProblem } from '../../fakes/openai-responses.js';
import { ANSWER_SCHEMA } from '../../../src/memory/extract/model-schema.js';

describe('strict schemas for codex --output-schema', () => {
  it('makes memory extraction’s answer schema one strict mode accepts, optional properties nullable', () => {
    const loose = ANSWER_SCHEMA;
    expect(strictSchemaProblem(loose)).toMatch(/'required'/);
    const strict = toStrictSchema(loose);
    expect(strictSchemaProblem(strict)).toBeUndefined();
    const item = (strict.properties as { memories: { items: { properties: Record<string, unknown>; required: string[] } } }).memories.items;
    expect(item.required).toEqual(expect.arrayContaining(['content', 'from', 'same', 'replaces']));
    expect(item.properties.replaces).toMatchObject({ type: ['array', 'null'] });
    expect(item.properties.same).toMatchObject({ type: ['string', 'null'] });
    expect(item.properties.from).toMatchObject({ type: 'array', items: { type: 'integer' } });
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

/**
 * `codex exec --output-schema` always asks the API for strict structured output, and strict mode
 * refuses a schema unless every object lists all its properties in `required` and sets
 * `additionalProperties: false`. A question's schema may have optional properties (Anthropic's tool
 * schemas do), so the schema sent is made strict: an optional property becomes required and may be
 * null; `restoreOptional` then drops those nulls from the answer, giving back the shape asked for.
 */
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const isObjectSchema = (s: Schema) => s.type === 'object' || isSchema(s.properties);

function nullable(s: Schema): Schema {
  if (typeof s.type === 'string' && s.type !== 'null') {
    const out: Schema = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum)) out.enum = [...(s.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(s.type)) return (s.type as unknown[]).includes('null') ? s : { ...s, type: [...(s.type as unknown[]), 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

export function toStrictSchema(s: Schema): Schema {
  const out: Schema = { ...s };
  if (isObjectSchema(s)) {
    const props = isSchema(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(props).map(([k, v]) => {
        const strict = isSchema(v) ? toStrictSchema(v) : v;
        return [k, required.has(k) || !isSchema(strict) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (isSchema(s.items)) out.items = toStrictSchema(s.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) out[key] = list.map((v: unknown) => (isSchema(v) ? toStrictSchema(v) : v));
  }
  return out;
}

/** Removes the nulls strict mode made the model write for properties `schema` has as optional. */
export function restoreOptional(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) return isSchema(schema.items) ? value.map((v: unknown) => restoreOptional(v, schema.items as Schema)) : value;
  if (!isSchema(value) || !isSchema(schema.properties)) return value;
  const props = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && k in props && !required.has(k)) continue;
    const sub = props[k];
    out[k] = isSchema(sub) ? restoreOptional(v, sub) : v;
  }
  return out;
}

/**
 * A JSON value out of a model's text answer: plain JSON, a fenced ```json block, JSON with prose
 * around it, trailing commas. Validated with a zod schema. Error messages never quote the answer
 * (it may carry transcript text), only what was wrong with it.
 */
import type { z } from 'zod';

export type StructuredErrorCode = 'empty_answer' | 'no_json' | 'invalid_json' | 'schema_mismatch';

export interface StructuredError {
  code: StructuredErrorCode;
  message: string;
}

export type Structured<T> = { ok: true; value: T } | { ok: false; error: StructuredError };

export interface StructuredOptions {
  /** A bare JSON array is also tried as `{[arrayKey]: array}` (e.g. 'memories'). */
  arrayKey?: string;
}

/** Spans tried before giving up on prose full of brackets. */
const MAX_SPAN_ATTEMPTS = 64;

/** Removes commas directly before `}` or `]`, outside strings. */
export function stripTrailingCommas(s: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += s[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      let j = i + 1;
      while (j < s.length && /\s/.test(s[j] as string)) j++;
      if (s[j] === '}' || s[j] === ']') continue;
    }
    out += c;
  }
  return out;
}

function tryParse(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) as unknown };
  } catch {
    try {
      return { ok: true, value: JSON.parse(stripTrailingCommas(s)) as unknown };
    } catch {
      return { ok: false };
    }
  }
}

/** Index just past the bracket closing the one at `start`, or -1. Strings are skipped. */
function matchBracket(s: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

function fencedBlocks(text: string): string[] {
  const tagged: string[] = [];
  const other: string[] = [];
  for (const m of text.matchAll(/```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g)) {
    const lang = (m[1] ?? '').toLowerCase();
    const body = m[2] ?? '';
    (lang.startsWith('json') ? tagged : other).push(body);
  }
  return [...tagged, ...other];
}

/**
 * Parsed JSON values found in `text`, most likely first: the whole text, fenced blocks (json ones
 * first), then bracket-balanced spans in reading order. `sawJsonish` says whether anything looked
 * like JSON at all (for the error).
 */
export function jsonCandidates(text: string): { values: unknown[]; sawJsonish: boolean } {
  const values: unknown[] = [];
  let sawJsonish = false;
  const consider = (s: string): boolean => {
    const t = s.trim();
    if (!t) return false;
    if (/^(\{\s*["}]|\[\s*[\]{["\d-]|\[\s*(true|false|null)\b)/.test(t)) sawJsonish = true;
    const r = tryParse(t);
    if (r.ok && r.value !== null && typeof r.value === 'object') values.push(r.value);
    return r.ok;
  };
  if (consider(text)) return { values, sawJsonish };
  for (const block of fencedBlocks(text)) consider(block);
  let attempts = 0;
  for (let i = 0; i < text.length && attempts < MAX_SPAN_ATTEMPTS;) {
    const open = text.slice(i).search(/[{[]/);
    if (open < 0) break;
    const start = i + open;
    const end = matchBracket(text, start);
    attempts++;
    if (end > 0 && consider(text.slice(start, end))) i = end;
    else i = start + 1;
  }
  return { values, sawJsonish };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`)
    .join('; ');
}

/** Validates an already parsed value (e.g. a tool_use input), with the same array wrapping. */
export function validateStructured<S extends z.ZodTypeAny>(value: unknown, schema: S, opts: StructuredOptions = {}): Structured<z.output<S>> {
  const direct = schema.safeParse(value);
  if (direct.success) return { ok: true, value: direct.data as z.output<S> };
  if (Array.isArray(value) && opts.arrayKey) {
    const wrapped = schema.safeParse({ [opts.arrayKey]: value });
    if (wrapped.success) return { ok: true, value: wrapped.data as z.output<S> };
  }
  return { ok: false, error: { code: 'schema_mismatch', message: `the JSON does not have the expected shape (${describeIssues(direct.error)})` } };
}

/** The first JSON value in `text` that `schema` accepts. */
export function parseStructured<S extends z.ZodTypeAny>(text: string, schema: S, opts: StructuredOptions = {}): Structured<z.output<S>> {
  const clean = text.replace(/^\uFEFF/, '');
  if (!clean.trim()) return { ok: false, error: { code: 'empty_answer', message: 'the model answered with no text' } };
  const { values, sawJsonish } = jsonCandidates(clean);
  let firstMismatch: StructuredError | undefined;
  for (const value of values) {
    const r = validateStructured(value, schema, opts);
    if (r.ok) return r;
    firstMismatch ??= r.error;
  }
  if (firstMismatch) return { ok: false, error: firstMismatch };
  if (sawJsonish) return { ok: false, error: { code: 'invalid_json', message: `the answer has JSON-like text that does not parse (${clean.length} chars)` } };
  return { ok: false, error: { code: 'no_json', message: `no JSON object or array in the answer (${clean.length} chars)` } };
}

/**
 * Reads a workflow file (YAML, or JSON when it ends in .json) and checks it against the one schema
 * (api/workflows.ts), so that every problem names where it is: `FILE:LINE:COL: tasks.build.needs[0]:
 * unknown task "tset"`. Both parsers keep source positions (yaml's node ranges, jsonc-parser's offsets).
 */
import { readFile } from 'node:fs/promises';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { WorkflowSpec } from '../api/workflows.js';
import { AppError } from '../errors.js';

type Path = (string | number)[];

/** `tasks.build.needs[0]`. */
export function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(top level)';
}

/** Where things are in the file: the offset of the value at a path (or of a key in the object there). */
interface Source {
  offset(path: Path, key?: string): number | undefined;
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

function yamlSource(doc: Document.Parsed): Source {
  return {
    offset(path, key) {
      // The deepest node that exists on the path: a missing value is reported where its parent is.
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
        if (n === 0 && !node) return doc.contents?.range[0];
        if (!node) continue;
        if (key !== undefined && n === path.length && isMap(node)) {
          const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
          const r = (pair?.key as { range?: [number, number, number] } | null)?.range;
          if (r) return r[0];
        }
        return node.range?.[0];
      }
      return undefined;
    },
  };
}

function jsonSource(root: JsonNode): Source {
  return {
    offset(path, key) {
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? root : findNodeAtLocation(root, path.slice(0, n));
        if (!node) continue;
        if (key !== undefined && n === path.length && node.type === 'object') {
          const prop = node.children?.find((p) => p.children?.[0]?.value === key);
          if (prop) return prop.offset;
        }
        // A value's position is its property's key when it has one (where a person looks).
        return node.parent?.type === 'property' ? node.parent.offset : node.offset;
      }
      return undefined;
    },
  };
}

function issuesText(file: string, text: string, src: Source, issues: z.ZodIssue[]): string {
  const lines = issues.slice(0, 20).map((i) => {
    const keys = i.code === 'unrecognized_keys' ? i.keys : [];
    if (keys.length > 0) {
      const at = src.offset(i.path, keys[0]);
      const where = pathText([...i.path, ...(keys[0] !== undefined ? [keys[0]] : [])]);
      return `${file}:${at === undefined ? '1:1' : lineCol(text, at)}: ${where}: unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;
    }
    const at = src.offset(i.path);
    return `${file}:${at === undefined ? '1:1' : lineCol(text, at)}: ${pathText(i.path)}: ${i.message}`;
  });
  if (issues.length > 20) lines.push(`(${issues.length - 20} more)`);
  return lines.join('\n');
}

function parseJson(file: string, text: string): { value: unknown; src: Source } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (first) throw new AppError('bad_request', `${file}:${lineCol(text, first.offset)}: ${printParseErrorCode(first.error)}`);
  if (!root) throw new AppError('bad_request', `${file}:1:1: the file is empty`);
  return { value: JSON.parse(text) as unknown, src: jsonSource(root) };
}

function parseYaml(file: string, text: string): { value: unknown; src: Source } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const p = lineCounter.linePos(first.pos[0]);
    throw new AppError('bad_request', `${file}:${p.line}:${p.col}: ${first.message.split('\n')[0] ?? first.code}`);
  }
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, src: yamlSource(doc) };
}

/** The workflow in `text` (`file` names it in errors and picks the parser), checked; a `bad_request` listing every problem with its place. */
export function parseWorkflowText(file: string, text: string): WorkflowSpec {
  const { value, src } = file.endsWith('.json') ? parseJson(file, text) : parseYaml(file, text);
  if (value === null || value === undefined) throw new AppError('bad_request', `${file}:1:1: the workflow is empty (it needs tasks:)`);
  const r = WorkflowSpec.safeParse(value);
  if (!r.success) throw new AppError('bad_request', `invalid workflow:\n${issuesText(file, text, src, r.error.issues)}`);
  return r.data;
}

export async function readWorkflowFile(file: string): Promise<WorkflowSpec> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new AppError('bad_request', `cannot read workflow file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseWorkflowText(file, text);
}

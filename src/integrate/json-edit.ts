/**
 * Edits of a JSON settings file as text: only the bytes of what changes are touched, so the rest of
 * the file keeps its formatting and key order, and removing what was added gives back the very
 * bytes there were before (an append is undone by removing the same span).
 */
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

export type JsonPath = readonly (string | number)[];
/** Set a value (replacing it, or appending it to its object or array), or remove it. */
export type JsonEdit = { path: JsonPath; value: unknown } | { path: JsonPath; remove: true };

/** The same edits on a parsed value (a copy). */
export function editJsonValue<T>(value: T, edits: readonly JsonEdit[]): T {
  const out = structuredClone(value);
  for (const e of edits) {
    const parent = e.path.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], out) as
      Record<string | number, unknown> | unknown[];
    const key = e.path[e.path.length - 1] as string | number;
    if (!('remove' in e)) (parent as Record<string | number, unknown>)[key] = structuredClone(e.value);
    else if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  }
  return out;
}

/** Applies the edits in order, each to the text the one before left. */
export function editJsonText(text: string, edits: readonly JsonEdit[]): string {
  return edits.reduce(applyEdit, text);
}

function applyEdit(text: string, edit: JsonEdit): string {
  const root = parseTree(text);
  const container = root && findNodeAtLocation(root, [...edit.path.slice(0, -1)]);
  if (!container || (container.type !== 'object' && container.type !== 'array'))
    throw new Error(`json edit: no object or array at ${JSON.stringify(edit.path.slice(0, -1))}`);
  const key = edit.path[edit.path.length - 1];
  const items = container.children ?? [];
  const index = container.type === 'object' ? items.findIndex((p) => p.children?.[0]?.value === key) : typeof key === 'number' && key < items.length ? key : -1;
  const style = new Style(text);
  if ('remove' in edit) {
    if (index < 0) throw new Error(`json edit: nothing to remove at ${JSON.stringify(edit.path)}`);
    const [from, to] = removalSpan(container, index);
    return text.slice(0, from) + text.slice(to);
  }
  if (index >= 0) {
    const item = items[index] as Node;
    const target = container.type === 'object' ? (item.children?.[1] as Node) : item;
    const indent = style.lineIndent(item.offset);
    return splice(text, target.offset, target.length, style.value(edit.value, indent));
  }
  const entry = (indent: string | undefined) => (container.type === 'object' ? `${JSON.stringify(key)}: ` : '') + style.value(edit.value, indent);
  const last = items[items.length - 1];
  if (!last) {
    // First entry of an empty container: on its own line, one level deeper than the container's line.
    const indent = style.lineStart(container.offset) + style.unit;
    return splice(text, container.offset + 1, 0, `${style.nl}${indent}${entry(indent)}`);
  }
  const indent = style.lineIndent(last.offset);
  if (indent !== undefined) return splice(text, end(last), 0, `,${style.nl}${indent}${entry(indent)}`);
  // A container written on one line: the new entry goes on that line too, spaced like the others.
  const prev = items[items.length - 2];
  const sep = prev ? text.slice(end(prev), last.offset).replace(/^\s*,/, '') : '';
  return splice(text, end(last), 0, `,${sep}${entry(undefined)}`);
}

/**
 * The span removing entry `i` takes: from the end of the entry before it (its comma and the space
 * after it go too), or for the first entry up to the next one, or for the only one everything from
 * the opening bracket. This is exactly the span an append inserted.
 */
function removalSpan(container: Node, i: number): [number, number] {
  const items = container.children ?? [];
  const item = items[i] as Node;
  const prev = items[i - 1];
  if (prev) return [end(prev), end(item)];
  const next = items[i + 1];
  if (next) return [item.offset, next.offset];
  return [container.offset + 1, end(item)];
}

const end = (n: Node) => n.offset + n.length;
const splice = (text: string, at: number, length: number, insert: string) => text.slice(0, at) + insert + text.slice(at + length);

/** How the file is written: its line ends and its indentation step. */
class Style {
  readonly nl: string;
  readonly unit: string;

  constructor(private readonly text: string) {
    this.nl = text.includes('\r\n') ? '\r\n' : '\n';
    const first = /\n([ \t]+)["{[\]}]/.exec(text);
    this.unit = first?.[1] ?? '  ';
  }

  /** The whitespace before `offset` when nothing else precedes it on its line. */
  lineIndent(offset: number): string | undefined {
    const start = this.text.lastIndexOf('\n', offset - 1) + 1;
    const before = this.text.slice(start, offset);
    return /^[ \t]*$/.test(before) ? before : undefined;
  }

  /** The leading whitespace of the line `offset` is on. */
  lineStart(offset: number): string {
    const start = this.text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(start, offset))?.[0] ?? '';
  }

  /** A value as JSON: indented like the file from `indent` on, or on one line when the entry is. */
  value(v: unknown, indent: string | undefined): string {
    if (indent === undefined) return JSON.stringify(v);
    return JSON.stringify(v, null, this.unit)
      .split('\n')
      .join(this.nl + indent);
  }
}

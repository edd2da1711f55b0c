/** Just enough Markdown for the documentation tests: prose lines, headings and their anchors, links, table rows. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const DOCS = join(ROOT, 'docs');

export interface Doc {
  /** Path from the repository root, e.g. `docs/cli.md`. */
  name: string;
  text: string;
  /** The lines outside fenced code blocks, with their 1-based line numbers. */
  prose: { n: number; line: string }[];
}

export function readDoc(name: string): Doc {
  const text = readFileSync(join(ROOT, name), 'utf8');
  const prose: Doc['prose'] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) prose.push({ n: i + 1, line });
  });
  return { name, text, prose };
}

/** README.md and every page under docs/. */
export function allDocs(): Doc[] {
  const pages = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...pages].map(readDoc);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
export function anchors(doc: Doc): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of doc.prose) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = (m[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    out.add(k === 0 ? base : `${base}-${k}`);
  }
  return out;
}

/** Every `[text](target)` outside code, with its line. */
export function links(doc: Doc): { n: number; target: string }[] {
  return doc.prose.flatMap(({ n, line }) => [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ n, target: m[1] as string })));
}

/**
 * Paragraphs of prose: runs of lines that are not blank, headings or table rows; a list item starts
 * a new one. Each with its first line and how many lines it runs.
 */
export function paragraphs(doc: Doc): { n: number; lines: number }[] {
  const out: { n: number; lines: number }[] = [];
  let open: { n: number; lines: number } | undefined;
  let last = 0;
  for (const { n, line } of doc.prose) {
    const breaks = n !== last + 1 || line.trim() === '' || /^(#|\|)/.test(line);
    last = n;
    if (breaks) {
      open = undefined;
      continue;
    }
    if (!open || /^([-*]|\d+\.) /.test(line)) {
      open = { n, lines: 0 };
      out.push(open);
    }
    open.lines++;
  }
  return out;
}

/** The cells of every table row (header and separator rows included), split on unescaped `|`. */
export function tableRows(doc: Doc): string[][] {
  return doc.prose
    .filter(({ line }) => line.startsWith('|'))
    .map(({ line }) =>
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

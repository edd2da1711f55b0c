/** The README is the short guide and docs/ the reference: their shape, and that every link between them holds. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allDocs, anchors, DOCS, links, paragraphs, readDoc, ROOT } from './markdown.js';

const readme = readDoc('README.md');

describe('the README', () => {
  it('is at most 300 lines', () => {
    expect(readme.text.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('keeps the two quick-start commands, and .ci/run runs its test command', () => {
    const start = readme.text.match(/^npm install && npm (start|test) .*$/gm) ?? [];
    expect(start.map((l) => l.split('#')[0]?.trim())).toEqual(['npm install && npm start', 'npm install && npm test']);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').trim().split('\n');
    expect(ci.at(-1)).toBe('npm install && npm test');
  });

  it('links the index of docs/, which links every page there, and BENCHMARKS.md', () => {
    const targets = links(readme).map((l) => l.target.split('#')[0]);
    expect(targets).toContain('docs/README.md');
    expect(targets).toContain('BENCHMARKS.md');
    const index = links(readDoc('docs/README.md')).map((l) => l.target.split('#')[0]);
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.filter((p) => !index.includes(p))).toEqual([]);
  });
});

describe('README.md and docs/', () => {
  const docs = allDocs();

  it('link only to files and headings that exist', () => {
    const byName = new Map(docs.map((d) => [d.name, d]));
    const broken: string[] = [];
    for (const doc of docs) {
      for (const { n, target } of links(doc)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? doc.name : relative(ROOT, join(ROOT, dirname(doc.name), path));
        const ok = existsSync(join(ROOT, file)) && (anchor === undefined || anchors(byName.get(file) ?? readDoc(file)).has(anchor));
        if (!ok) broken.push(`${doc.name}:${n} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('have no paragraph longer than 10 lines', () => {
    const long = docs.flatMap((d) =>
      paragraphs(d)
        .filter((p) => p.lines > 10)
        .map((p) => `${d.name}:${p.n} runs ${p.lines} lines`),
    );
    expect(long).toEqual([]);
  });
});

/**
 * The daemon launches agents without loading the model SDK: the launch service and the context
 * modules it uses are reached from the daemon's entry by static imports, and the SDK (~0.1–0.3 s of
 * start-up) must not be, or every daemon start pays for it. Type-only imports and `await import()`
 * load nothing at start-up, so the walk skips them.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The modules `file` loads when it is loaded: value imports and re-exports, not `import type`. */
function valueImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const s of src.statements) {
    if (ts.isImportDeclaration(s)) {
      const c = s.importClause;
      const typeOnly =
        c && (c.isTypeOnly || (!c.name && c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly && ts.isStringLiteral(s.moduleSpecifier)) out.push(s.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(s) && !s.isTypeOnly && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      out.push(s.moduleSpecifier.text);
    }
  }
  return out;
}

/** Every path of static loads from `entry` to a package whose name starts with `pkg`, as module chains. */
function chainsTo(entry: string, pkg: string): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), [...chain, file]);
      else if (spec.startsWith(pkg)) found.push([...chain, file, spec].map((f) => f.replace(`${root}/`, '')));
    }
  };
  walk(resolve(root, entry), []);
  return found;
}

describe('the daemon without the model SDK', () => {
  it('loads no @anthropic-ai/sdk module at start-up, agent launching and context modules included', () => {
    expect(chainsTo('src/daemon/main.ts', '@anthropic-ai/sdk')).toEqual([]);
  });

  it('would notice a route that loaded the context barrel', () => {
    // The barrel re-exports the manager, whose compaction classifies model errors with the SDK.
    expect(chainsTo('src/agent/context/index.ts', '@anthropic-ai/sdk').length).toBeGreaterThan(0);
  });
});

/**
 * `npm install` on npm 11 lists every dependency whose install scripts `allowScripts` in
 * package.json does not cover: each one the lockfile marks `hasInstallScript` is declared there,
 * allowed or denied, so a new user sees no such warning.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const read = <T>(file: string): T => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8')) as T;

describe('install scripts', () => {
  it('every package of the lockfile with install scripts is declared in allowScripts', () => {
    const lock = read<{ packages: Record<string, { hasInstallScript?: boolean; version?: string }> }>('package-lock.json');
    const pkg = read<{ allowScripts?: Record<string, boolean> }>('package.json');
    const declared = Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(.)@[^/]*$/, '$1'));
    const scripted = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter((name) => !declared.includes(name))).toEqual([]);
  });
});

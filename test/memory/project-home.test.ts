/** The home directory is no project: `$HOME` itself (however reached), not what lies below it. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHomeDir, projectKey } from '../../src/project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempHome(): string {
  const dir = mkdtempSync('/tmp/ns-home-key-');
  dirs.push(dir);
  const home = join(dir, 'home');
  mkdirSync(join(home, 'notes'), { recursive: true });
  mkdirSync(join(home, 'src', 'api', '.git'), { recursive: true });
  return home;
}

describe('isHomeDir', () => {
  it('is true of $HOME itself, reached as written or through a symlink', () => {
    const home = tempHome();
    const env = { HOME: home };
    expect(isHomeDir(projectKey(home), env)).toBe(true);
    const link = join(home, '..', 'link-to-home');
    symlinkSync(home, link);
    expect(isHomeDir(link, env)).toBe(true);
    expect(isHomeDir(home, { HOME: link })).toBe(true);
  });

  it('is false of a repository below HOME, of a plain folder below it, and of another directory', () => {
    const home = tempHome();
    const env = { HOME: home };
    expect(isHomeDir(projectKey(join(home, 'src', 'api')), env)).toBe(false);
    expect(isHomeDir(projectKey(join(home, 'notes')), env)).toBe(false);
    expect(isHomeDir(join(home, '..'), env)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('a Windows profile folder itself is a home; a folder in it is not', () => {
    expect(isHomeDir('C:\\Users\\kim')).toBe(true);
    expect(isHomeDir('C:/Users/kim/')).toBe(true);
    expect(isHomeDir('C:\\Users\\kim\\src\\shop')).toBe(false);
  });
});

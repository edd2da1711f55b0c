import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readExitCode } from '../../src/tasks/adoption.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the exit file', () => {
  it('counts only a whole number with its newline: the wrapper writes it in place, so a read may catch it empty or cut short', async () => {
    const dir = mkdtempSync('/tmp/ns-exit-');
    dirs.push(dir);
    expect(await readExitCode(dir)).toBeNull(); // not written yet
    for (const [text, code] of [
      ['', null],
      ['13', null],
      ['137\n', 137],
      ['0\n', 0],
      ['x\n', null],
    ] as const) {
      writeFileSync(join(dir, 'exit'), text);
      expect(await readExitCode(dir), JSON.stringify(text)).toBe(code);
    }
  });
});

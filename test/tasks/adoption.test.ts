import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimStart, readExitCode } from '../../src/tasks/adoption.js';

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

describe('claiming a start that never reported', () => {
  it('takes a task no wrapper holds, leaves one a wrapper holds or is writing, and takes one whose wrapper file stayed empty', () => {
    const dir = mkdtempSync('/tmp/ns-claim-');
    dirs.push(dir);
    const file = join(dir, 'wrapper');
    expect(claimStart(dir)).toEqual({ kind: 'claimed' });
    expect(claimStart(dir)).toEqual({ kind: 'claimed' }); // its own "lost" line
    writeFileSync(file, '41 900 boot 2048\n');
    expect(claimStart(dir)).toEqual({ kind: 'wrapper', pid: 41, start: 900 });
    writeFileSync(file, '');
    expect(claimStart(dir)).toEqual({ kind: 'starting' });
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    expect(claimStart(dir)).toEqual({ kind: 'claimed' });
  });
});

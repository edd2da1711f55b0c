import { describe, expect, it } from 'vitest';
import { LineSplitter, parseReport } from '../../../src/tasks/spawner/report.js';

describe("the wrappers' report lines", () => {
  it('reads each kind, the directory last and whole even with spaces in it', () => {
    expect(parseReport('s 10 2000 11 /s/tasks/7')).toEqual({ kind: 'started', wrapperPid: 10, wrapperStart: 2000, childPid: 11, dir: '/s/tasks/7' });
    expect(parseReport('x 143 /my state/tasks/7')).toEqual({ kind: 'exited', code: 143, dir: '/my state/tasks/7' });
    expect(parseReport('d /s/tasks/7')).toEqual({ kind: 'duplicate', dir: '/s/tasks/7' });
    expect(parseReport('e fifo /s/tasks/7')).toEqual({ kind: 'failed', what: 'fifo', dir: '/s/tasks/7' });
    expect(parseReport('e claim /s/tasks/7')).toEqual({ kind: 'failed', what: 'claim', dir: '/s/tasks/7' });
  });

  it('refuses a short line, an unknown kind and an unknown setup failure', () => {
    for (const line of ['s 10 2000 /s/tasks/7', 'x 0', 'd', 'e disk /s/tasks/7', 'q 1 /s', '']) expect(parseReport(line), line).toBeNull();
  });

  it('splits a stream into whole lines, keeping a partial one for the next chunk', () => {
    const lines: string[] = [];
    const split = new LineSplitter();
    split.push('x 0 /a\nx 1 /', (l) => lines.push(l));
    expect(lines).toEqual(['x 0 /a']);
    split.push('b\n\nd /c\n', (l) => lines.push(l));
    expect(lines).toEqual(['x 0 /a', 'x 1 /b', 'd /c']);
  });
});

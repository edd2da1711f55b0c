/** The lines wrappers write to the spawner's stdout, one per event, the task directory last (it may hold spaces). */
export type Report =
  | { kind: 'started'; dir: string; wrapperPid: number; wrapperStart: number; childPid: number }
  | { kind: 'exited'; dir: string; code: number }
  /** Another wrapper (or a daemon that declared it lost) had already claimed the task. */
  | { kind: 'duplicate'; dir: string }
  /** What could not be set up: the start file, the claim (the `wrapper` file), output.log, the stdin FIFO. */
  | { kind: 'failed'; dir: string; what: FailedSetup };

export type FailedSetup = 'start' | 'claim' | 'output' | 'fifo';
const FAILS = new Set<string>(['start', 'claim', 'output', 'fifo'] satisfies FailedSetup[]);

/** One line (without its newline) as a report; null for anything else. */
export function parseReport(line: string): Report | null {
  const f = line.split(' ');
  const num = (i: number) => Number(f[i]);
  const rest = (i: number) => f.slice(i).join(' ');
  switch (f[0]) {
    case 's':
      if (f.length < 5) return null;
      return { kind: 'started', wrapperPid: num(1), wrapperStart: num(2), childPid: num(3), dir: rest(4) };
    case 'x':
      if (f.length < 3) return null;
      return { kind: 'exited', code: num(1), dir: rest(2) };
    case 'd':
      return f.length < 2 ? null : { kind: 'duplicate', dir: rest(1) };
    case 'e':
      if (f.length < 3 || !FAILS.has(f[1] ?? '')) return null;
      return { kind: 'failed', what: f[1] as FailedSetup, dir: rest(2) };
    default:
      return null;
  }
}

/** Splits a stream of text into lines, keeping a partial last line for the next chunk. */
export class LineSplitter {
  private rest = '';

  push(chunk: string, each: (line: string) => void): void {
    const text = this.rest + chunk;
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      this.rest = text;
      return;
    }
    this.rest = text.slice(end + 1);
    for (const line of text.slice(0, end).split('\n')) if (line !== '') each(line);
  }
}

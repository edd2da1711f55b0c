import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { utf8Complete } from '../../src/sys/utf8.js';
import { readRange, readTail, tailOffset } from '../../src/tasks/output.js';

const dir = mkdtempSync('/tmp/ns-output-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('output reads', () => {
  const file = join(dir, 'out.log');
  writeFileSync(file, 'one\ntwo\nthree\nfour\n');

  it('reads a range by offset and says where to continue', async () => {
    const c = await readRange(file, 4, 3);
    expect(c.data.toString()).toBe('two');
    expect(c.nextOffset).toBe(7);
    expect(c.size).toBe(19);
  });

  it('returns empty data past the end', async () => {
    const c = await readRange(file, 1000, 10);
    expect(c.data.length).toBe(0);
    expect(c.nextOffset).toBe(1000);
  });

  it('reads the tail: the last bytes, and where they start', async () => {
    const c = await readTail(file, 6);
    expect(c.data.toString()).toBe('\nfour\n');
    expect(c.offset).toBe(13);
    const whole = await readTail(file, 100);
    expect([whole.offset, whole.data.length]).toEqual([0, 19]);
    expect((await readTail(join(dir, 'nope'), 10)).data.length).toBe(0);
  });

  it('treats a missing file as empty', async () => {
    expect((await readRange(join(dir, 'nope'), 0, 10)).size).toBe(0);
    expect(await tailOffset(join(dir, 'nope'), 3)).toBe(0);
  });

  it('finds where the last N lines start', async () => {
    expect(await tailOffset(file, 2)).toBe(8);
    expect(await tailOffset(file, 1)).toBe(14);
    expect(await tailOffset(file, 10)).toBe(0);
    expect(await tailOffset(file, 0)).toBe(19);
  });

  it('counts a last line without a newline', async () => {
    const f = join(dir, 'partial.log');
    writeFileSync(f, 'a\nb\nprompt? ');
    expect(await tailOffset(f, 1)).toBe(4);
  });

  it('scans back across block boundaries', async () => {
    const f = join(dir, 'big.log');
    const line = `${'x'.repeat(999)}\n`;
    writeFileSync(f, line.repeat(500));
    expect(await tailOffset(f, 200)).toBe(300 * 1000);
  });

  it('never splits a UTF-8 character', () => {
    const euro = Buffer.from('a€', 'utf8'); // € is 3 bytes
    expect(utf8Complete(euro.subarray(0, 2)).toString()).toBe('a');
    expect(utf8Complete(euro.subarray(0, 3)).toString()).toBe('a');
    expect(utf8Complete(euro).toString()).toBe('a€');
    expect(utf8Complete(Buffer.from('plain')).toString()).toBe('plain');
  });
});

/**
 * A transcript whose only line is longer than the line cap (64 MiB) can never be read, whether or
 * not its newline has been written: `ingest` refuses both alike, and records no session for either.
 */
import { copyFileSync, openSync, closeSync, writeSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/memory/transcripts/lines.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tempDir = tempDirsPerTest(afterEach, 'ns-oversized-');

/** One line of `bytes` bytes (no newline), written a MiB at a time. */
function longLine(file: string, bytes: number): void {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const fd = openSync(file, 'w');
  try {
    for (let left = bytes; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  } finally {
    closeSync(fd);
  }
}

describe('ingest of a transcript whose one line is over the cap', () => {
  it('is refused with or without its newline, with the same error, and nothing is recorded', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tempDir();
    const bare = join(dir, 'bare.jsonl');
    const ended = join(dir, 'ended.jsonl');
    longLine(bare, MAX_LINE_BYTES + 1024 * 1024);
    copyFileSync(bare, ended);
    appendFileSync(ended, '\n');

    const withFormat = await Promise.all([bare, ended].map((f) => d.cli(['ingest', f, '--format', 'messages'])));
    for (const r of withFormat) expect(r.code, r.stdout + r.stderr).toBe(2);
    const [a, b] = withFormat.map((r) => r.stderr);
    expect(a?.replace(bare, 'FILE')).toBe(b?.replace(ended, 'FILE'));
    expect(a).toMatch(/read no messages/);

    for (const f of [bare, ended]) expect((await d.cli(['ingest', f])).code).toBe(2);
    const sessions = await d.cli(['sessions', 'list', '--json']);
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(JSON.parse(sessions.stdout)).toEqual([]);
  }, 60_000);
});

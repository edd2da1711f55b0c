import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PERSIST, persistLargeOutput, preview } from '../../../src/agent/context/persist.js';
import { filler, tempDir } from './helpers.js';

describe('tier 3: tool output at execution', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((rm) => rm()));
  const target = (taskDir: string | undefined) => ({ taskDir, toolName: 'bash', toolUseId: 'toolu_1', seq: 7 });

  it('keeps output up to 30 KB as it is', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const text = filler(30 * 1024);
    expect(await persistLargeOutput(text, target(t.dir))).toEqual({ kind: 'kept', text });
  });

  it('saves output over 30 KB and gives a ~2 KB preview, the path and how to read it', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    const text = `FIRST LINE\n${filler(80 * 1024)}\nLAST LINE`;
    const out = await persistLargeOutput(text, target(t.dir));
    expect(out.kind).toBe('saved');
    if (out.kind !== 'saved') return;
    expect(readFileSync(out.path, 'utf8')).toBe(text);
    expect(out.path.startsWith(`${t.dir}/tool-results/00007-bash-toolu_1`)).toBe(true);
    expect(statSync(out.path).mode & 0o777).toBe(0o600);
    expect(out.text).toContain(out.path);
    expect(out.text).toMatch(/"offset": 1, "limit": 200/);
    expect(out.text).toContain('FIRST LINE');
    expect(out.text).not.toContain('LAST LINE');
    expect(out.text.length).toBeLessThan(2048 + 600);
  });

  it('without a task directory, cuts output over 50,000 characters to head and tail', async () => {
    const text = `HEAD\n${filler(120_000)}\nTAIL-ERROR: boom`;
    const out = await persistLargeOutput(text, target(undefined));
    expect(out.kind).toBe('truncated');
    expect(out.text.length).toBeLessThanOrEqual(50_000);
    expect(out.text.startsWith('HEAD')).toBe(true);
    expect(out.text.endsWith('TAIL-ERROR: boom')).toBe(true);
    expect(out.text).toMatch(/\[\.\.\. output truncated: \d+ chars cut from the middle \.\.\.\]/);
    // Between 30 KB and 50,000 characters without a directory: kept.
    expect((await persistLargeOutput(filler(40_000), target(undefined))).kind).toBe('kept');
  });

  it('falls back to truncation when the write fails', async () => {
    const t = tempDir();
    dirs.push(t.remove);
    writeFileSync(`${t.dir}/file`, ''); // a file where the directory should be: ENOTDIR
    const out = await persistLargeOutput(filler(60_000), target(`${t.dir}/file`), DEFAULT_PERSIST);
    expect(out.kind === 'truncated' && out.reason).toMatch(/could not save/);
  });

  it('previews by bytes, at a line end, without splitting characters', () => {
    expect(Buffer.byteLength(preview('é'.repeat(3000), 2048))).toBeLessThanOrEqual(2048);
    expect(preview('é'.repeat(3000), 2048)).not.toContain('\uFFFD');
    expect(preview(`${'a'.repeat(1500)}\n${'b'.repeat(1500)}`, 2048)).toBe('a'.repeat(1500));
  });
});

import { appendFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../../src/memory/transcripts/index.js';
import { tempDir } from './helpers.js';

const TARGET_BYTES = 50 * 1024 * 1024;

// A baseline taken over the generator's garbage would hide any growth: collect it first. Test
// workers do not run with --expose-gc, so expose it at run time.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A realistic mix: short user turns, thinking, tool calls and multi-KB tool outputs; some broken lines. */
function generate(path: string): { messages: number; malformed: number } {
  const common = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/dev/big', sessionId: 'big-session', version: '1.0.98' };
  const output = 'ok  src/module.test.ts (12 tests) 41ms\n'.repeat(160);
  let size = 0;
  let i = 0;
  let messages = 0;
  let malformed = 0;
  while (size < TARGET_BYTES) {
    const batch: string[] = [];
    for (let k = 0; k < 1000; k++, i++) {
      const timestamp = new Date(Date.UTC(2025, 8, 1) + i * 1000).toISOString();
      const base = { ...common, uuid: `u-${i}`, timestamp };
      let line: unknown;
      switch (i % 4) {
        case 0:
          line = { ...base, type: 'user', message: { role: 'user', content: `Step ${i}: please keep going with the refactor of module ${i % 97}.` } };
          break;
        case 1:
          line = {
            ...base,
            type: 'assistant',
            message: { role: 'assistant', content: [{ type: 'thinking', thinking: `Considering step ${i}. `.repeat(40), signature: 'sig' }] },
          };
          break;
        case 2:
          line = {
            ...base,
            type: 'assistant',
            message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `pnpm test module${i % 97}` } }] },
          };
          break;
        default:
          line = { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: output }] } };
      }
      messages++;
      batch.push(JSON.stringify(line));
      if (i % 5000 === 4999) {
        batch.push('{"type":"user","message":{"content":"cut');
        malformed++;
      }
    }
    const text = `${batch.join('\n')}\n`;
    appendFileSync(path, text);
    size += Buffer.byteLength(text);
  }
  return { messages, malformed };
}

describe('a 50 MB Claude Code transcript', () => {
  const dir = tempDir('large');

  it('streams in bounded memory and reasonable time', async () => {
    const path = join(dir, 'big.jsonl');
    const expected = generate(path);
    const size = statSync(path).size;
    expect(size).toBeGreaterThanOrEqual(TARGET_BYTES);

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let count = 0;
    let toolResults = 0;
    const started = performance.now();
    const parse = await parseTranscript(path);
    for await (const message of parse.messages) {
      count++;
      if (message.kind === 'tool_result') toolResults++;
      if (count % 2000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    const seconds = (performance.now() - started) / 1000;
    const growthMb = (peak - baseline) / 1024 / 1024;
    rmSync(path);

    console.log(`50 MB transcript: ${count} messages in ${seconds.toFixed(2)} s, peak heap growth ${growthMb.toFixed(1)} MB`);
    expect(count).toBe(expected.messages);
    expect(toolResults).toBe(expected.messages / 4);
    expect(parse.stats()).toMatchObject({ malformedLines: expected.malformed, endOffset: size, sessionId: 'big-session' });
    // Streaming measures ~13 MB; holding the messages would cost about the file's size (~60 MB),
    // so a bound below that proves the file is not held, with room for GC timing.
    expect(growthMb).toBeLessThan(40);
    expect(seconds).toBeLessThan(5);
  });
});

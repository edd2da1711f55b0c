/** Several transcripts are ingested by the time each starts, whatever order a glob gave them in. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inTimeOrder, startOf } from '../../src/cli/transcript-order.js';
import { tempDirsPerTest } from '../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-order-');
const line = (o: object) => `${JSON.stringify(o)}\n`;

describe('inTimeOrder', () => {
  it('puts the oldest first by the first time each file writes, and files with no time last in the order given', () => {
    const dir = tmp();
    const file = (name: string, body: string) => {
      writeFileSync(join(dir, name), body);
      return join(dir, name);
    };
    // Claude Code: a summary line without a time, then the first message.
    const claude = file(
      '9f1c.jsonl',
      line({ type: 'summary', summary: 'x' }) + line({ type: 'user', timestamp: '2026-03-02T10:00:00.000Z', message: { role: 'user', content: 'hi' } }),
    );
    const codex = file('rollout.jsonl', line({ timestamp: '2026-03-01T08:00:00Z', type: 'session_meta', payload: {} }));
    const plain = file('plain.jsonl', line({ role: 'user', content: 'We deploy on Fridays.' }));
    const plain2 = file('plain2.jsonl', line({ role: 'user', content: 'No time here either.' }));
    const gone = join(dir, 'gone.jsonl');
    expect(startOf(codex)).toBe(Date.parse('2026-03-01T08:00:00Z'));
    expect(startOf(gone)).toBeUndefined();
    expect(inTimeOrder([plain, claude, gone, codex, plain2])).toEqual([codex, claude, plain, gone, plain2]);
  });
});

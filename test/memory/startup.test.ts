import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory, RecallResponse } from '../../src/api/memory.js';
import { daemonsPerTest, until } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);

const WORDS = ['billing', 'ledger', 'gateway', 'worker', 'cache', 'queue', 'schema', 'deploy', 'replica', 'canary', 'tracing', 'quota'];

describe('start-up with a large memory store', () => {
  it('answers status before the memories are loaded, and what needs them waits for all of them', async () => {
    const d = newDaemon();
    const n = 40_000;
    const memories: Memory[] = [];
    for (let i = 0; i < n; i++) {
      const w = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length] as string;
      memories.push({
        id: `m${String(i).padStart(12, '0')}`,
        // Ports 8000–8099: no port spells another service's number, so "service 39998" names one memory.
        content: `The ${w(1)} ${w(2)} of service ${i} runs behind the ${w(3)} on port ${8000 + (i % 100)}.`,
        type: 'fact',
        scope: 'user',
        stable: true,
        pinned: false,
        importance: 0.6,
        createdAt: '2026-10-01T00:00:00.000Z',
        lastSeenAt: '2026-10-01T00:00:00.000Z',
        reinforcements: 0,
        sources: [],
        origin: 'import',
      });
    }
    mkdirSync(d.paths.memoryDir, { recursive: true });
    writeFileSync(join(d.paths.memoryDir, 'user.json'), JSON.stringify({ version: 1, namespace: { scope: 'user' }, memories }));
    await d.start();
    const first = await d.client.status();
    expect(first.memory?.loading).toBe(true);

    // A search right away finds a memory near the end of the file: it waited for the whole load.
    const r = await d.cli(['recall', '--query', 'service 39998', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as RecallResponse).items[0]?.id).toBe('m000000039998');
    const done = await until(async () => {
      const s = await d.client.status();
      return s.memory?.loading === false && s;
    });
    expect(done.memory?.memories).toBe(n);
  }, 60_000);
});

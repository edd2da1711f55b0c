/** The injection ledger's file: appended per injection, rewritten with the newest when it outgrows its cap, rejections kept. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Injection } from '../../src/api/injections.js';
import { InjectionLedger } from '../../src/inject/ledger.js';
import { tempDirsPerTest } from '../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-ledger-');
const log = pino({ level: 'silent' });

const injection = (ledger: InjectionLedger, i: number): Injection => ({
  id: ledger.nextId(),
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  event: i % 2 === 0 ? 'session-start' : 'prompt',
  sessionId: `s${i}`,
  project: '/p',
  items: [{ kind: 'memory', id: 'm000000000001', score: 0.5, why: ['importance 0.50'], tokens: 10, text: 'x' }],
  tokens: 12,
});

describe('injection ledger file', () => {
  it('keeps the newest 10,000 injections and every rejection when it outgrows 15,000 lines; a reopened ledger answers the same', () => {
    const file = join(tmp(), 'injections.jsonl');
    const ledger = InjectionLedger.open(file, log);
    ledger.reject({
      memoryId: 'm000000000002',
      project: '/p',
      at: '2026-01-01T00:00:00.000Z',
      reinforcements: 1,
      content: 'c',
      type: 'fact',
      sources: [],
      transcripts: [],
    });
    for (let i = 0; i < 15_000; i++) ledger.record(injection(ledger, i));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(15_002);
    expect(lines.length).toBeGreaterThanOrEqual(10_001);
    const again = InjectionLedger.open(file, log);
    expect(again.isRejected('/p', 'm000000000002', 1)).toBe(true);
    expect(again.isRejected('/p', 'm000000000002', 2)).toBe(false);
    expect(again.isRejected('/q', 'm000000000002', 1)).toBe(false);
    expect(again.lastStart('/p', undefined)).toBe(ledger.lastStart('/p', undefined));
    expect(again.list({ limit: 1 })[0]?.id).toBe('i15000');
    expect(again.nextId()).toBe('i15001');
  });

  it("an unreject lifts the rejection, and both stay in the memory's history through a compaction", () => {
    const file = join(tmp(), 'injections.jsonl');
    const ledger = InjectionLedger.open(file, log);
    const rejection = {
      memoryId: 'm000000000003',
      at: '2026-01-01T00:00:00.000Z',
      reinforcements: 0,
      content: 'c',
      type: 'fact',
      sources: [],
      transcripts: [],
    };
    ledger.reject({ ...rejection, project: '/p' });
    ledger.reject({ ...rejection, project: '/q' });
    expect(ledger.unreject('m000000000003', '/p', '2026-01-02T00:00:00.000Z').map((r) => r.project)).toEqual(['/p']);
    expect(ledger.unreject('m000000000003', '/p', '2026-01-02T00:00:00.000Z')).toEqual([]);
    for (let i = 0; i < 15_000; i++) ledger.record(injection(ledger, i));
    const again = InjectionLedger.open(file, log);
    expect([again.isRejected('/p', 'm000000000003', 0), again.isRejected('/q', 'm000000000003', 0)]).toEqual([false, true]);
    expect(again.rejectionEvents('m000000000003').map((e) => [e.kind, e.project])).toEqual([
      ['rejected', '/p'],
      ['rejected', '/q'],
      ['unrejected', '/p'],
    ]);
  });

  it('an append after a torn line starts a line of its own, so it is not lost with it', () => {
    const file = join(tmp(), 'injections.jsonl');
    writeFileSync(file, '{"t":"inj","v":{"id"');
    const ledger = InjectionLedger.open(file, log);
    ledger.record(injection(ledger, 0));
    expect(
      InjectionLedger.open(file, log)
        .list({ limit: 10 })
        .map((v) => v.id),
    ).toEqual(['i1']);
  });

  it('skips a torn line and keeps the rest', () => {
    const file = join(tmp(), 'injections.jsonl');
    const ledger = InjectionLedger.open(file, log);
    ledger.record(injection(ledger, 0));
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"t":"inj","v":{"id"\n`);
    expect(
      InjectionLedger.open(file, log)
        .list({ limit: 10 })
        .map((v) => v.id),
    ).toEqual(['i1']);
  });
});

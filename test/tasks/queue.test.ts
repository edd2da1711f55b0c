import { describe, expect, it } from 'vitest';
import { decide } from '../../src/tasks/queue.js';
import { entries, exited, finished, queued, running } from '../helpers/task-fixtures.js';

const NOW = Date.parse('2026-01-01T00:01:00.000Z');
const limit = (n: number) => () => n;
const ids = (ts: { id: string }[]) => ts.map((t) => t.id);

describe('the queue decision', () => {
  it('starts queued tasks oldest id first, up to the group limit less what runs there', () => {
    const d = decide(entries(running('1'), queued('10'), queued('9'), queued('11')), limit(3), NOW);
    expect(ids(d.start)).toEqual(['9', '10']);
    expect(d.skip).toEqual([]);
  });

  it('counts each group against its own limit; a full group does not hold back another', () => {
    const d = decide(
      entries(running('1', { group: 'gpu' }), queued('2', { group: 'gpu' }), queued('3'), queued('4', { group: 'gpu' })),
      (g) => (g === 'gpu' ? 1 : 4),
      NOW,
    );
    expect(ids(d.start)).toEqual(['3']);
  });

  it('waits for a dependency still queued or running, and starts once it exited 0', () => {
    expect(ids(decide(entries(running('1'), queued('2', { after: ['1'] })), limit(4), NOW).start)).toEqual([]);
    expect(ids(decide(entries(exited('1', 0), queued('2', { after: ['1'] })), limit(4), NOW).start)).toEqual(['2']);
  });

  it('skips a task whose dependency failed or was removed, saying which and how, and its own dependents in the same pass', () => {
    const d = decide(entries(exited('1', 2), queued('2', { after: ['1'] }), queued('3', { after: ['2'] }), queued('4', { after: ['99'] })), limit(4), NOW);
    expect(ids(d.start)).toEqual([]);
    expect(d.skip.map((s) => [s.task.id, s.reason])).toEqual([
      ['2', expect.stringMatching(/^dependency 1 .*2/)],
      ['3', expect.stringMatching(/^dependency 2 /)],
      ['4', 'dependency 99 was removed before it could be seen to succeed'],
    ]);
  });

  it('with afterAny, starts once every dependency has ended, however it ended', () => {
    const d = decide(entries(exited('1', 1), finished('2', { kind: 'lost', reason: 'x' }), queued('3', { after: ['1', '2'], afterAny: true })), limit(4), NOW);
    expect(ids(d.start)).toEqual(['3']);
  });

  it('reads a retried dependency by its last attempt', () => {
    const tasks = entries(exited('1', 1, { retriedBy: '2' }), exited('2', 0, { retryOf: '1' }), queued('3', { after: ['1'] }));
    expect(ids(decide(tasks, limit(4), NOW).start)).toEqual(['3']);
    const waiting = entries(exited('1', 1, { retriedBy: '2' }), running('2', { retryOf: '1' }), queued('3', { after: ['1'] }));
    expect(decide(waiting, limit(4), NOW)).toMatchObject({ start: [], skip: [] });
  });

  it('holds an attempt until its retry delay ends and names the earliest such time', () => {
    const later = new Date(NOW + 5000).toISOString();
    const sooner = new Date(NOW + 2000).toISOString();
    const d = decide(
      entries(queued('1', { notBefore: later }), queued('2', { notBefore: sooner }), queued('3', { notBefore: new Date(NOW - 1).toISOString() })),
      limit(4),
      NOW,
    );
    expect(ids(d.start)).toEqual(['3']);
    expect(d.wakeAt).toBe(NOW + 2000);
  });
});

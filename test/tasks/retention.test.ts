import { afterEach, describe, expect, it, vi } from 'vitest';
import { expired } from '../../src/tasks/retention.js';
import { exited, queued, running } from '../helpers/task-fixtures.js';

afterEach(() => vi.useRealTimers());

describe('which finished tasks retention removes', () => {
  it('takes finished tasks that ended before the cutoff, never queued or running ones', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-10T00:00:00.000Z') });
    const old = exited('1', 0); // ended 2026-01-01
    const recent = { ...exited('2', 0), endedAt: '2026-01-09T12:00:00.000Z' };
    expect(expired([old, recent, queued('3'), running('4')], 7)).toEqual(['1']);
    expect(expired([old, recent], 10)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { shouldRetry } from '../../src/tasks/retry.js';
import { exited, finished, queued } from '../helpers/task-fixtures.js';

describe('whether an ended task gets another attempt', () => {
  it('retries a non-zero exit or a timeout while retries are left', () => {
    expect(shouldRetry(exited('1', 1, { retries: 2 }))).toBe(true);
    expect(shouldRetry(finished('1', { kind: 'timed_out', reason: 'timed out after 1s' }, { retries: 1 }))).toBe(true);
  });

  it('never retries a success, a kill, a skip, a lost task, one with no retries left, or one not finished', () => {
    expect(shouldRetry(exited('1', 0, { retries: 2 }))).toBe(false);
    expect(shouldRetry(finished('1', { kind: 'killed', signal: 'SIGTERM', exitCode: 143 }, { retries: 2 }))).toBe(false);
    expect(shouldRetry(finished('1', { kind: 'skipped', reason: 'x' }, { retries: 2 }))).toBe(false);
    expect(shouldRetry(finished('1', { kind: 'lost', reason: 'x' }, { retries: 2 }))).toBe(false);
    expect(shouldRetry(exited('1', 1, { retries: 0 }))).toBe(false);
    expect(shouldRetry(exited('1', 1))).toBe(false);
    expect(shouldRetry(queued('1', { retries: 2 }))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { endedTask, endedUnrun, interpretStatus, signalNumber, timeoutReason } from '../../src/tasks/outcome.js';
import { queued, running } from '../helpers/task-fixtures.js';

describe("interpreting a wrapper's exit status", () => {
  it('reads 0..128 and a number above that names no signal as an exit code', () => {
    expect(interpretStatus(0, 0)).toEqual({ kind: 'exited', exitCode: 0 });
    expect(interpretStatus(3, 0)).toEqual({ kind: 'exited', exitCode: 3 });
    expect(interpretStatus(128, 0)).toEqual({ kind: 'exited', exitCode: 128 });
    expect(interpretStatus(255, 0)).toEqual({ kind: 'exited', exitCode: 255 });
  });

  it('reads 128+N as killed by signal N, as a shell does', () => {
    expect(interpretStatus(128 + signalNumber('SIGTERM'), 0)).toEqual({ kind: 'killed', signal: 'SIGTERM', exitCode: 143 });
    expect(interpretStatus(128 + signalNumber('SIGKILL'), 0)).toEqual({ kind: 'killed', signal: 'SIGKILL', exitCode: 137 });
  });

  it('reads SIGXFSZ as the output cap reached, naming the cap', () => {
    const code = 128 + signalNumber('SIGXFSZ');
    expect(interpretStatus(code, 4096)).toEqual({ kind: 'killed', signal: 'SIGXFSZ', exitCode: code, reason: 'output cap of 4096 bytes reached' });
  });
});

describe('ended tasks', () => {
  it('keeps a running task’s pid and start, and takes the size and end time given', () => {
    const t = running('4', { pid: 77, attention: { kind: 'silent', since: 'x', tail: '' }, paused: true }) as Parameters<typeof endedTask>[0];
    const ended = endedTask(t, { kind: 'exited', exitCode: 0 }, 12, new Date('2026-01-01T00:00:05.000Z'));
    expect(ended).toMatchObject({ state: 'finished', pid: 77, startedAt: t.startedAt, outputBytes: 12, endedAt: '2026-01-01T00:00:05.000Z' });
    expect(ended).not.toHaveProperty('attention');
    expect(ended).not.toHaveProperty('paused');
  });

  it('gives a task that never ran no pid and no start', () => {
    const ended = endedUnrun(queued('5'), { kind: 'skipped', reason: 'dependency 4 exited 1' });
    expect(ended).toMatchObject({ state: 'finished', outcome: { kind: 'skipped' } });
    expect(ended).not.toHaveProperty('startedAt');
    expect(ended).not.toHaveProperty('pid');
  });

  it('words a timeout from the task’s own limit', () => {
    expect(timeoutReason(running('1', { timeoutSeconds: 0.3 }))).toBe('timed out after 0.3s');
  });
});

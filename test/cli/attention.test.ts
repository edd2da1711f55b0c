import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskJson as Task } from '../../src/api/tasks.js';
import { TestDaemon, until } from '../helpers/daemon.js';

let d: TestDaemon;
let notifyLog: string;
beforeAll(async () => {
  notifyLog = `/tmp/ns-notify-${process.pid}.log`;
  // The notify command gets the task's details in its environment.
  const notifyCommand = `echo "$NIGHTSHIFT_EVENT $NIGHTSHIFT_TASK_ID $NIGHTSHIFT_TASK_STATUS $NIGHTSHIFT_EXIT_CODE $NIGHTSHIFT_ATTENTION $NIGHTSHIFT_OUTPUT" >> ${notifyLog}`;
  d = new TestDaemon({ stallCheckSeconds: 0.2, maxParallel: 2, outputCapBytes: 8192, notifyCommand });
  await d.start();
});
afterAll(async () => {
  await d.cleanup();
  rmSync(notifyLog, { force: true });
});

async function run(...args: string[]): Promise<string> {
  const r = await d.cli(['run', ...args]);
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

const attentionOf = async (id: string) => {
  const t: Task = await d.client.get(id);
  return t.state === 'running' ? t.attention : undefined;
};

describe('stall detection', () => {
  it('flags a task waiting at an interactive prompt, and clears it when input is sent', async () => {
    const id = await run('--stall-after', '1', '--', 'sh', '-c', 'printf "Overwrite config.json? [y/N] "; read a; echo "answer $a"; sleep 30');
    const att = await until(() => attentionOf(id));
    expect(att).toMatchObject({ kind: 'prompt' });
    expect(att.tail).toContain('Overwrite config.json? [y/N]');
    const ps = await d.cli(['ps']);
    expect(ps.stdout).toMatch(new RegExp(`^${id}\\s+-\\s+running \\(prompt\\)`, 'm'));
    await d.cli(['send', id, 'y']);
    expect(await attentionOf(id)).toBeUndefined();
    await until(async () => (await d.cli(['output', id])).stdout.includes('answer y'));
    await d.cli(['kill', id]);
  });

  it('flags a task blocked reading stdin even when its output does not look like a prompt', async () => {
    const id = await run('--stall-after', '1', '--', 'sh', '-c', 'echo "loading data"; read x; echo done');
    const att = await until(() => attentionOf(id));
    expect(att.kind).toBe('prompt');
    await d.cli(['send', id, 'go']);
    expect((await d.cli(['wait', id])).code).toBe(0);
  });

  it('marks long silence without a prompt as silent, and clears it when output grows', async () => {
    const id = await run('--stall-after', '1', '--no-stdin', '--', 'sh', '-c', 'echo working; sleep 2; echo more; sleep 30');
    const att = await until(() => attentionOf(id));
    expect(att.kind).toBe('silent');
    await until(async () => (await attentionOf(id)) === undefined, 5000);
    await d.cli(['kill', id]);
  });

  it('runs the notify command on attention and on exit', async () => {
    const id = await run('--stall-after', '1', '--', 'sh', '-c', 'printf "Password: "; read p; exit 4');
    await until(() => attentionOf(id));
    await d.cli(['send', id, 'hunter2']);
    await d.cli(['wait', id]);
    const lines = await until(() => {
      try {
        const text = readFileSync(notifyLog, 'utf8');
        return text.includes(`exited ${id} `) && text;
      } catch {
        return false;
      }
    });
    expect(lines).toMatch(new RegExp(`^attention ${id} running\\s+prompt `, 'm'));
    expect(lines).toMatch(new RegExp(`^exited ${id} exited 4 .*tasks/${id}/output.log$`, 'm'));
    expect(lines).not.toContain('hunter2');
  });
});

describe('limits', () => {
  it('ends a task that reaches the output cap with a clear reason', async () => {
    const id = await run('--', 'sh', '-c', 'head -c 100000 /dev/zero; echo never');
    await d.cli(['wait', id]);
    const t = JSON.parse((await d.cli(['show', id, '--json'])).stdout);
    expect(t).toMatchObject({ status: 'killed', signal: 'SIGXFSZ', outputBytes: 8192 });
    expect(t.reason).toMatch(/output cap of 8192 bytes reached/);
  });

  it('queues tasks beyond the parallel limit and starts them as others end', async () => {
    // The slots are held until the queued task has been seen queued: no timing to race on a loaded machine.
    const a = await run('--', 'sleep', '60');
    const b = await run('--', 'sleep', '60');
    const c = await run('--', 'sh', '-c', 'echo third');
    expect((await d.client.get(c)).status).toBe('queued');
    const ps = await d.cli(['ps']);
    expect(ps.stdout).toMatch(new RegExp(`^${c}\\s+-\\s+queued`, 'm'));
    await d.cli(['kill', a]);
    expect((await d.cli(['wait', c])).code).toBe(0);
    expect((await d.cli(['output', c])).stdout).toBe('third\n');
    await d.cli(['kill', b]);
    await d.cli(['wait', b]);
  });

  it('kills a queued task before it starts', async () => {
    const a = await run('--', 'sleep', '5');
    const b = await run('--', 'sleep', '5');
    const c = await run('--', 'echo', 'never');
    const k = await d.cli(['kill', c]);
    expect(k.code).toBe(0);
    expect((await d.cli(['wait', c])).code).toBe(143);
    expect((await d.client.get(c)).status).toBe('killed');
    await d.cli(['kill', a]);
    await d.cli(['kill', b]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, until } from '../helpers/daemon.js';

const daemon = daemonsPerTest(afterEach);

describe('GET /v1/tasks pages', () => {
  it('pages the matching tasks newest first with a total; without a page, every match as before', async () => {
    const d = daemon();
    await d.start();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await d.client.run({ command: ['true'], cwd: '/tmp', stdin: false })).id);
    const sleeper = await d.client.run({ command: ['sleep', '30'], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.list(true, { status: 'exited' })).length === 5);
    const page = await d.client.call('listTasks', { query: { all: '1', status: 'exited', order: 'desc', offset: 1, limit: 2 } });
    expect(page.total).toBe(5);
    expect(page.tasks.map((t) => t.id)).toEqual([ids[3], ids[2]]);
    const whole = await d.client.call('listTasks', { query: { all: '1' } });
    expect(whole.tasks.map((t) => t.id)).toEqual([...ids, sleeper.id]);
    expect((await d.client.list(false)).map((t) => t.id)).toEqual([sleeper.id]);
    expect((await d.client.call('listTasks', { query: { attention: '1' } })).total).toBe(0);
    await expect(d.client.call('listTasks', { query: { limit: 0 } })).rejects.toThrow(/limit/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, until } from '../helpers/daemon.js';
import { rawRequest } from '../helpers/raw-http.js';

const daemon = daemonsPerTest(afterEach);

interface Ev {
  event: string;
  id?: string;
  data: { offset?: number; text?: string; task?: { status: string } };
}

function parseEvents(body: string): Ev[] {
  return body
    .split('\n\n')
    .filter((b) => b.includes('event:'))
    .map((block) => {
      const f = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      return { event: f.event ?? '', ...(f.id !== undefined ? { id: f.id } : {}), data: JSON.parse(f.data ?? 'null') as Ev['data'] };
    });
}

describe('GET /v1/tasks/:id/follow/sse', () => {
  it('sends output in whole UTF-8 characters with offsets as ids, then an end event with the final state', async () => {
    const d = daemon();
    await d.start();
    // "é" is c3 a9: its two bytes are written 300 ms apart.
    const task = await d.client.run({ command: ['sh', '-c', "printf 'caf\\303'; sleep 0.3; printf '\\251!\\n'"], cwd: '/tmp', stdin: false });
    const res = await rawRequest({ socketPath: d.paths.socket }, { method: 'GET', path: `/v1/tasks/${task.id}/follow/sse` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = parseEvents(res.body);
    const output = events.filter((e) => e.event === 'output');
    expect(output.map((e) => e.data.text).join('')).toBe('café!\n');
    expect(output.every((e) => !e.data.text?.includes('\uFFFD'))).toBe(true);
    expect(output.length).toBeGreaterThan(1);
    // Each id is where the next event starts: the byte offset after its text.
    for (const e of output) expect(Number(e.id)).toBe((e.data.offset ?? 0) + Buffer.byteLength(e.data.text ?? ''));
    expect(output[0]?.data.offset).toBe(0);
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { task: { status: 'exited' } } });
  });

  it('resumes from Last-Event-ID (a reconnecting EventSource) over the offset first asked for', async () => {
    const d = daemon();
    await d.start();
    const task = await d.client.run({ command: ['sh', '-c', 'echo one; echo two'], cwd: '/tmp', stdin: false });
    await until(async () => (await d.client.get(task.id)).status === 'exited');
    const path = `/v1/tasks/${task.id}/follow/sse?offset=0`;
    const resumed = parseEvents((await rawRequest({ socketPath: d.paths.socket }, { method: 'GET', path, headers: { 'last-event-id': '4' } })).body);
    expect(resumed.filter((e) => e.event === 'output').map((e) => e.data.text)).toEqual(['two\n']);
    expect(resumed[0]?.data.offset).toBe(4);
    const fresh = parseEvents((await rawRequest({ socketPath: d.paths.socket }, { method: 'GET', path })).body);
    expect(fresh[0]?.data.text).toBe('one\ntwo\n');
    const bad = await rawRequest({ socketPath: d.paths.socket }, { method: 'GET', path: `/v1/tasks/999/follow/sse` });
    expect(bad.status).toBe(404);
  });
});

/** Clients that go away mid-request: the daemon notes it at debug level and serves on; no error line, no stack trace. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../helpers/daemon.js';

let d: TestDaemon;
beforeAll(async () => {
  d = new TestDaemon(); // logLevel debug
  await d.start();
});
afterAll(() => d.cleanup());

/** Sends the head of a request and part of its body, then closes the connection. */
function halfRequest(socket: string, head: string, part: string): Promise<void> {
  return new Promise((resolve) => {
    const s = connect(socket, () => {
      s.write(head + part, () => setTimeout(() => s.destroy(), 20));
    });
    s.on('close', () => resolve());
    s.on('error', () => resolve());
  });
}

interface Line {
  level: number;
  msg: string;
  err?: { stack?: string };
}

describe('a client that disconnects mid-request', () => {
  it('500 of them mid-body, and 100 readers mid-answer, log no error line and no stack; the daemon serves on', async () => {
    const body = JSON.stringify({ command: ['true'], cwd: '/tmp', name: 'x'.repeat(100) });
    const head = (path: string) => `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const paths = ['/v1/tasks', '/v1/recall', '/v1/workflows', '/v1/groups', '/v1/memories'];
    await Promise.all(Array.from({ length: 500 }, (_, i) => halfRequest(d.paths.socket, head(paths[i % paths.length] ?? '/v1/tasks'), body.slice(0, 30))));
    // And readers of a running task that leave while it is answering them: follow, wait, events.
    const task = await d.client.run({ command: ['sh', '-c', 'while :; do echo tick; sleep 0.01; done'], cwd: '/tmp', stdin: false });
    const gets = [`/v1/tasks/${task.id}/follow`, `/v1/tasks/${task.id}/wait`, '/v1/events', `/v1/tasks/${task.id}/follow/sse`];
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => halfRequest(d.paths.socket, `GET ${gets[i % gets.length] ?? '/v1/events'} HTTP/1.1\r\nhost: x\r\n\r\n`, '')),
    );
    await d.client.kill(task.id, 'SIGKILL');
    expect((await d.client.status()).pid).toBe(d.proc?.pid);
    // Give the last closes time to be handled (they race the status call above).
    await new Promise((r) => setTimeout(r, 300));
    const lines = d.log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
    const errors = lines.filter((l) => l.level >= 50);
    expect(errors.slice(0, 3), `${errors.length} error-level lines`).toEqual([]);
    expect(d.log).not.toContain('request failed');
    const gone = lines.filter((l) => /client went away/.test(l.msg));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((l) => l.level === 20 && l.err?.stack === undefined)).toBe(true);
  });
});

/**
 * A config change applies on reload (`nightshift reload`, or SIGHUP) and closes what it replaces:
 * with real ports, the new TCP listener answers and the old one is closed; the log level and the
 * dream schedule change; keys that need a restart are named. A config that cannot apply changes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusResponse } from '../../src/api/status.js';
import { ApiClient } from '../../src/client/api-client.js';
import { daemonsPerTest, until, type TestDaemon } from '../helpers/daemon.js';

const daemon = daemonsPerTest(afterEach);
const PATH = process.env.PATH ?? '/usr/bin:/bin';
const HOST = '127.0.0.1';

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    s.setTimeout(2000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.connect(port, HOST);
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function writeConfig(d: TestDaemon, config: Record<string, unknown>): void {
  writeFileSync(d.paths.configFile, JSON.stringify({ transcripts: { watch: false }, ...config }));
}

const tcpPort = (s: StatusResponse) => (s.tcp ? Number(new URL(s.tcp).port) : null);

/** Whether the daemon logged a task start for a task run now. */
async function logsTaskStart(d: TestDaemon): Promise<boolean> {
  const mark = d.log.length;
  const t = await d.client.run({ command: ['true'], cwd: '/', env: { PATH } });
  await d.client.wait(t.id, 10);
  await new Promise((r) => setTimeout(r, 100));
  return d.log.slice(mark).includes('task started');
}

describe('reload', () => {
  it('swaps the TCP listener (old port closed, new one answering with the token), the log level and the dream schedule; names what needs a restart', async () => {
    const d = daemon({ tcp: { host: HOST, port: 0 }, logLevel: 'info', dream: { schedule: false } });
    await d.start();
    const first = tcpPort(await d.client.status());
    expect(first).not.toBeNull();
    expect(await connects(first ?? 0)).toBe(true);
    expect(await logsTaskStart(d)).toBe(true);

    const second = await freePort();
    writeConfig(d, { tcp: { host: HOST, port: second }, logLevel: 'warn', dream: { schedule: false } });
    const r = await d.cli(['reload', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ applied: ['logLevel', 'tcp'], needsRestart: [] });
    expect(tcpPort(await d.client.status())).toBe(second);
    expect(await connects(first ?? 0)).toBe(false);
    const token = readFileSync(d.paths.tokenFile, 'utf8').trim();
    const overTcp = new ApiClient({ url: `http://${HOST}:${second}`, token });
    expect((await overTcp.status()).pid).toBe(d.proc?.pid);
    expect(await logsTaskStart(d)).toBe(false);

    // SIGHUP: TCP off, debug logging, a dream schedule, and a key that waits for a restart.
    writeConfig(d, { logLevel: 'debug', dream: { schedule: '*/5 * * * *' }, memory: { extractor: 'heuristic' } });
    d.proc?.kill('SIGHUP');
    await until(async () => (await d.client.status()).tcp === null);
    expect(await connects(second)).toBe(false);
    expect((await d.client.status()).dream?.cron).toBe('*/5 * * * *');
    expect(await logsTaskStart(d)).toBe(true);
    expect(d.log).toMatch(/"needsRestart":\["memory.extractor"\]/);
    const human = await d.cli(['reload']);
    expect(human.stdout).toMatch(/nothing to apply/);
    expect(human.stdout).toMatch(/applied only when the daemon restarts: memory.extractor/);
  }, 60_000);

  it('an invalid file, a bad cron expression or a port in use changes nothing', async () => {
    const d = daemon({ tcp: { host: HOST, port: 0 }, dream: { schedule: false } });
    await d.start();
    const port = tcpPort(await d.client.status()) ?? 0;

    writeFileSync(d.paths.configFile, '{"logLevel": "loud"');
    const broken = await d.cli(['reload']);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain(d.paths.configFile);

    writeConfig(d, { tcp: { host: HOST, port }, dream: { schedule: 'every night' } });
    const cron = await d.cli(['reload']);
    expect(cron.code).not.toBe(0);
    expect(cron.stderr).toMatch(/dream.schedule "every night" is not a valid cron expression/);

    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, HOST, () => r()));
    const busy = (taken.address() as { port: number }).port;
    try {
      writeConfig(d, { tcp: { host: HOST, port: busy }, dream: { schedule: '0 4 * * *' } });
      const inUse = await d.cli(['reload']);
      expect(inUse.code).not.toBe(0);
      expect(inUse.stderr).toMatch(/port is in use/);
    } finally {
      await new Promise((r) => taken.close(r));
    }

    const s = await d.client.status();
    expect(tcpPort(s)).toBe(port);
    expect(await connects(port)).toBe(true);
    expect(s.dream?.cron).toBe('off');
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Monitor } from '../../src/api/monitors.js';
import { TestDaemon, tempDirsPerTest, until } from '../helpers/daemon.js';
import { alive, startMcp } from '../mcp/mcp-client.js';

const FAKE = resolve(import.meta.dirname, '../fakes/mcp-server.mjs');
const tmp = tempDirsPerTest(afterEach, 'ns-mon-');
const daemons: TestDaemon[] = [];
const servers: ChildProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) if (s.pid !== undefined && alive(s.pid)) process.kill(s.pid, 'SIGKILL');
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

/** A HOME whose ~/.claude.json configures the fake stdio server (user scope), and a daemon living in it. */
function setup() {
  const home = tmp();
  const project = join(home, 'proj');
  mkdirSync(project);
  const failFile = join(home, 'fail');
  const claude = { mcpServers: { fake: { type: 'stdio', command: process.execPath, args: [FAKE], env: { FAKE_MCP_FAIL_FILE: failFile } } } };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(claude));
  const notified = join(home, 'notified.jsonl');
  const d = new TestDaemon({ notify: { onMonitor: `cat >> ${notified}` } }, { HOME: home, CODEX_HOME: join(home, '.codex') });
  daemons.push(d);
  return { home, project, failFile, notified, d };
}

async function monitors(d: TestDaemon): Promise<Monitor[]> {
  const r = await d.cli(['monitors', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { monitors: Monitor[] }).monitors;
}

const stateOf = async (d: TestDaemon, name: string) => (await monitors(d)).find((m) => m.name === name);

/** The fake server on streamable HTTP: its process, and its URL once it listens. */
async function httpServer(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const portFile = join(dir, 'port');
  const proc = spawn(process.execPath, [FAKE, '--http', portFile], { stdio: 'ignore' });
  servers.push(proc);
  await until(() => existsSync(portFile), 10_000);
  return { proc, url: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp` };
}

describe('MCP server monitors', () => {
  it('monitor add mcp --all finds a stdio server of ~/.claude.json; it is up with a latency; a failing server is down within two intervals, and up again', async () => {
    const { project, failFile, notified, d } = setup();
    await d.start();
    const add = await d.cli(['monitor', 'add', 'mcp', '--all', '--project', project, '--interval', '400ms', '--timeout', '5s', '--json']);
    expect(add.code, add.stderr).toBe(0);
    const added = (JSON.parse(add.stdout) as { added: Monitor[] }).added;
    expect(added.map((m) => [m.name, m.transport, m.source.kind])).toEqual([['fake', 'stdio', 'claude-user']]);

    const up = await until(async () => {
      const m = await stateOf(d, 'fake');
      return m?.state === 'up' && m;
    });
    expect(up.last?.latencyMs).toBeGreaterThan(0);
    expect(up.last?.tools).toBe(1);
    expect(up.p50Ms).toBeGreaterThan(0);
    expect((await d.cli(['status'])).stdout).toMatch(/^mcp: {4}1 up, 0 down/m);
    expect((await d.cli(['monitors'])).stdout).toMatch(/fake +stdio +up/);

    writeFileSync(failFile, '');
    const failedAt = Date.now();
    const down = await until(async () => {
      const m = await stateOf(d, 'fake');
      return m?.state === 'down' && m;
    }, 15_000);
    // Two intervals, plus what one check of a server that starts and exits takes on a loaded machine.
    expect(Date.now() - failedAt).toBeLessThan(2 * 400 + 3000);
    expect(down.last?.error).toContain('configured to fail');
    // The change of state ran notify.onMonitor with the event on stdin.
    const events = await until(() => {
      const lines = existsSync(notified) ? readFileSync(notified, 'utf8').split('\n').filter(Boolean) : [];
      const parsed = lines.map((l) => JSON.parse(l) as { type: string; server: string; status: string; message: string });
      return parsed.some((e) => e.status === 'down') && parsed;
    });
    expect(events.find((e) => e.status === 'down')).toMatchObject({ type: 'monitor', server: 'fake', message: expect.stringContaining('up → down') });
    expect((await d.cli(['status', '--json'])).stdout).toContain('"down": 1');
    const check = await d.cli(['monitor', 'check', 'fake']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^fake: down/);

    rmSync(failFile);
    const again = await d.cli(['monitor', 'check', 'fake', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { monitor: Monitor }).monitor.state).toBe('up');
  });

  it('an HTTP server (streamable HTTP) is up, and down within two intervals once its process is killed', async () => {
    const { home, project, d } = setup();
    const srv = await httpServer(home);
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), `[mcp_servers.remote]\nurl = "${srv.url}"\n`);
    await d.start();
    const add = await d.cli(['monitor', 'add', 'mcp', 'remote', '--project', project, '--interval', '300ms', '--timeout', '3s']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/added m[0-9a-f]{8} remote \(http/);
    await until(async () => (await stateOf(d, 'remote'))?.state === 'up');
    expect((await monitors(d)).map((m) => m.name)).toEqual(['remote']);

    process.kill(srv.proc.pid ?? 0, 'SIGKILL');
    const killedAt = Date.now();
    const down = await until(async () => {
      const m = await stateOf(d, 'remote');
      return m?.state === 'down' && m;
    }, 10_000);
    expect(Date.now() - killedAt).toBeLessThan(2 * 300 + 1000);
    expect(down.last?.error).toMatch(/fetch failed|ECONNREFUSED/);
  });

  it('monitors and their history survive a restart; rm removes one; bad input is refused', async () => {
    const { project, d } = setup();
    await d.start();
    expect((await d.cli(['monitor', 'add', 'mcp', '--project', project])).code).toBe(2);
    const unknown = await d.cli(['monitor', 'add', 'mcp', 'nope', '--project', project]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no MCP server named nope is configured (found: fake)');
    expect((await d.cli(['monitor', 'add', 'mcp', '--all', '--interval', 'soon'])).stderr).toContain('--interval must be a duration');

    await d.cli(['monitor', 'add', 'mcp', 'fake', '--project', project, '--interval', '300ms']);
    const before = await until(async () => {
      const m = await stateOf(d, 'fake');
      return m && m.history.length >= 2 && m;
    });
    await d.restart();
    const after = await stateOf(d, 'fake');
    expect(after?.id).toBe(before.id);
    expect(after?.history.length).toBeGreaterThanOrEqual(before.history.length);
    expect(after?.intervalMs).toBe(300);
    await until(async () => ((await stateOf(d, 'fake'))?.history.length ?? 0) > before.history.length + 1);

    const again = await d.cli(['monitor', 'add', 'mcp', '--all', '--project', project]);
    expect(again.stdout).toContain(`already monitored: ${before.id} fake`);

    const mcp = await startMcp(d.env, project);
    try {
      const r = await mcp.call('monitor_list');
      expect(r.structuredContent).toMatchObject({ monitors: [{ id: before.id, name: 'fake', state: 'up' }] });
    } finally {
      await mcp.close();
    }

    const rm = await d.cli(['monitor', 'rm', 'fake']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(await monitors(d)).toEqual([]);
    expect((await d.cli(['monitor', 'rm', 'fake'])).code).toBe(1);
    expect(JSON.parse(readFileSync(d.paths.monitorsFile, 'utf8'))).toEqual({ version: 1, monitors: [] });
  });
});

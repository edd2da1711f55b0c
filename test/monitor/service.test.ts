import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorState } from '../../src/api/monitors.js';
import { MonitorService } from '../../src/monitor/service.js';
import { tempDirsPerTest, until } from '../helpers/daemon.js';

const FAKE = resolve(import.meta.dirname, '../fakes/mcp-server.mjs');
const tmp = tempDirsPerTest(afterEach, 'ns-monsvc-');
const services: MonitorService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.stop()));
});

describe('MonitorService', () => {
  it('announces every change of state to onChange(monitor, from, to), the hook notifications hang on', async () => {
    const home = tmp();
    const project = join(home, 'p');
    mkdirSync(project);
    const failFile = join(home, 'fail');
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { fake: { command: process.execPath, args: [FAKE], env: { FAKE_MCP_FAIL_FILE: failFile } } } }),
    );
    const svc = new MonitorService(join(home, 'state', 'monitors.json'), { ...process.env, HOME: home }, pino({ level: 'silent' }));
    services.push(svc);
    const changes: [string, MonitorState, MonitorState][] = [];
    svc.onChange((m, from, to) => changes.push([m.name, from, to]));
    svc.onChange(() => {
      throw new Error('a broken listener does not stop the others or the checks');
    });
    svc.start();
    await svc.add({ all: true, project, intervalMs: 200, timeoutMs: 5000 });
    await until(() => changes.length >= 1, 10_000);
    writeFileSync(failFile, '');
    await until(() => changes.length >= 2, 10_000);
    expect(changes).toEqual([
      ['fake', 'pending', 'up'],
      ['fake', 'up', 'down'],
    ]);
    expect(svc.counts()).toEqual({ up: 0, degraded: 0, down: 1, pending: 0 });
  });

  it('a slow server is degraded, with the latency it took', async () => {
    const home = tmp();
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: [FAKE], env: { FAKE_MCP_LIST_DELAY_MS: '300' } } } }),
    );
    const svc = new MonitorService(join(home, 'monitors.json'), { ...process.env, HOME: home }, pino({ level: 'silent' }));
    services.push(svc);
    svc.start();
    const { added } = await svc.add({ name: 'slow', project: home, intervalMs: 60_000, timeoutMs: 5000, slowMs: 250 });
    const m = await svc.checkNow(added[0]?.id ?? '');
    expect(m.state).toBe('degraded');
    expect(m.last?.latencyMs).toBeGreaterThanOrEqual(300);
    expect(m.last?.error).toMatch(/^slow: \d+ ms \(over 250 ms\)$/);
  });
});

describe('MonitorService state file', () => {
  it('a monitors file that does not parse is moved aside and the service starts without monitors', () => {
    const dir = tmp();
    const file = join(dir, 'monitors.json');
    writeFileSync(file, '{"version": 1, "monitors": [{"id": "oops"}]}');
    const svc = new MonitorService(file, { HOME: dir }, pino({ level: 'silent' }));
    services.push(svc);
    svc.start();
    expect(svc.list()).toEqual([]);
    const aside = readdirSync(dir).filter((f) => f.startsWith('monitors.json.corrupt-'));
    expect(aside).toHaveLength(1);
    // The one name format of every state file moved aside (sys/quarantine.ts): the UTC time, `-` for `:` and `.`.
    expect(aside[0]).toMatch(/^monitors\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(readFileSync(join(dir, aside[0] ?? ''), 'utf8')).toContain('oops');
  });
});

import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);

describe('a corrupt memory file', () => {
  it('is moved aside (kept) and the daemon, its tasks and the other memories keep running', async () => {
    const d = newDaemon();
    mkdirSync(d.paths.memoryDir, { recursive: true });
    writeFileSync(join(d.paths.memoryDir, 'user.json'), '{"version":1,"namespace":{"scope":"user"},"memories":[{"id":"bad"}]}');
    writeFileSync(d.paths.sessionsFile, '{torn');
    mkdirSync(d.paths.stateDir, { recursive: true });
    for (const f of ['model-usage.json', 'monitors.json', 'prompt-injections.json']) writeFileSync(join(d.paths.stateDir, f), '{torn');
    await d.start();
    const left = readdirSync(d.paths.memoryDir);
    // One name format for every state file moved aside: the UTC time, `-` for `:` and `.`.
    const aside = (name: string) => new RegExp(`^${name.replaceAll('.', String.raw`\.`)}${String.raw`\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$`}`);
    expect(left.filter((f) => aside('user.json').test(f))).toHaveLength(1);
    expect(left.filter((f) => aside('sessions.json').test(f))).toHaveLength(1);
    const state = readdirSync(d.paths.stateDir);
    for (const f of ['model-usage.json', 'monitors.json', 'prompt-injections.json'])
      expect(
        state.filter((x) => aside(f).test(x)),
        f,
      ).toHaveLength(1);
    expect(existsSync(join(d.paths.memoryDir, 'user.json'))).toBe(false);
    expect(d.log).toContain('moved aside');
    const r = await d.cli(['remember', '--user', 'Keep commits small.']);
    expect(r.code, r.stderr).toBe(0);
    expect((await d.cli(['run', '--', 'true'])).code).toBe(0);
    expect((await d.cli(['recall', '--project', '/tmp'])).stdout).toContain('Keep commits small');
  });
});

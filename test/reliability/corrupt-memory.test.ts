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
    await d.start();
    const left = readdirSync(d.paths.memoryDir);
    expect(left.some((f) => f.startsWith('user.json.corrupt-'))).toBe(true);
    expect(left.some((f) => f.startsWith('sessions.json.corrupt-'))).toBe(true);
    expect(existsSync(join(d.paths.memoryDir, 'user.json'))).toBe(false);
    expect(d.log).toContain('moved aside');
    const r = await d.cli(['remember', '--user', 'Keep commits small.']);
    expect(r.code, r.stderr).toBe(0);
    expect((await d.cli(['run', '--', 'true'])).code).toBe(0);
    expect((await d.cli(['recall', '--project', '/tmp'])).stdout).toContain('Keep commits small');
  });
});

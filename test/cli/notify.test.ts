import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, tempDirsPerTest, until } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tempDir = tempDirsPerTest(afterEach, 'ns-notify-');

/** The JSON lines the notify commands appended to `file`. */
function events(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('notify config section', () => {
  it('runs notify.onExit with the exit event as JSON on stdin, and notify.onStall on a stalled task', async () => {
    const dir = tempDir();
    const exits = join(dir, 'exit.jsonl');
    const stalls = join(dir, 'stall.jsonl');
    const d = newDaemon({ stallCheckSeconds: 0.2, notify: { onExit: `cat >> ${exits}`, onStall: `cat >> ${stalls}` } });
    await d.start();
    const id = (await d.cli(['run', '--name', 'short', '--', 'sh', '-c', 'exit 3'])).stdout.trim();
    const [exit] = await until(() => {
      const e = events(exits);
      return e.length > 0 && e;
    });
    expect(exit).toMatchObject({ type: 'exit', task: { id, name: 'short', status: 'exited', exitCode: 3 } });
    expect(typeof exit?.at).toBe('string');
    expect(events(stalls)).toHaveLength(0);

    const stalled = (await d.cli(['run', '--stall-after', '1', '--', 'sh', '-c', 'printf "Continue? [y/N] "; sleep 30'])).stdout.trim();
    const [stall] = await until(() => {
      const e = events(stalls);
      return e.length > 0 && e;
    });
    expect(stall).toMatchObject({ type: 'stall', task: { id: stalled, status: 'running' }, attention: { kind: 'prompt' } });
    expect(String((stall?.attention as { tail: string }).tail)).toContain('Continue? [y/N]');
    await d.cli(['kill', stalled]);
    await until(() => events(exits).some((e) => (e.task as { id: string }).id === stalled));
  });

  it('applies a changed notify section on reload', async () => {
    const dir = tempDir();
    const exits = join(dir, 'exit.jsonl');
    const d = newDaemon();
    await d.start();
    const before = (await d.cli(['run', '--', 'true'])).stdout.trim();
    await d.cli(['wait', before]);
    writeFileSync(d.paths.configFile, JSON.stringify({ logLevel: 'debug', transcripts: { watch: false }, notify: { onExit: `cat >> ${exits}` } }));
    const r = await d.cli(['reload', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ applied: ['notify.onExit'], needsRestart: [] });
    const after = (await d.cli(['run', '--', 'true'])).stdout.trim();
    await until(() => events(exits).length > 0);
    expect(events(exits).map((e) => (e.task as { id: string }).id)).toEqual([after]);
  });
});

import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, TestDaemon, until } from '../helpers/daemon.js';

const daemons: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const mode = (p: string) => statSync(p).mode & 0o777;

/**
 * What under the state directory others could reach: every directory must be private; so must every
 * file the daemon and the task wrapper write (child.pid and exit included).
 */
function notPrivate(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const m = lstatSync(p).mode & 0o777;
      if (m & 0o077) out.push(`${p} ${m.toString(8)}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

describe('socket and state permissions', () => {
  it('keeps the socket 0600 in a 0700 directory even under umask 000 and over lax, stale leftovers', async () => {
    const d = new TestDaemon({ tcp: { host: '127.0.0.1', port: 0 } });
    daemons.push(d);
    // Leftovers of an earlier, careless setup: world-writable dirs.
    mkdirSync(d.paths.runtimeDir, { recursive: true });
    mkdirSync(d.paths.stateDir, { recursive: true });
    chmodSync(d.paths.runtimeDir, 0o777);
    chmodSync(d.paths.stateDir, 0o755);

    // The daemon under umask 000: anything it does not make private explicitly would be world-open.
    const start = () => {
      const p = spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, CLI, 'daemon'], { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
      p.stdout.on('data', (c: Buffer) => (d.log += c.toString()));
      p.stderr.on('data', (c: Buffer) => (d.log += c.toString()));
      d.proc = p;
      return until(async () => (await d.client.status().catch(() => false)) && true, 15_000);
    };
    await start();
    const check = () => {
      expect(lstatSync(d.paths.socket).isSocket()).toBe(true);
      expect(mode(d.paths.socket).toString(8)).toBe('600');
      expect(mode(d.paths.runtimeDir).toString(8)).toBe('700');
      expect(mode(d.paths.stateDir).toString(8)).toBe('700');
      expect(mode(d.paths.tasksDir).toString(8)).toBe('700');
    };
    check();

    // Task directories, output, state and token files are private too; the task itself keeps the umask it was given.
    const t = await d.client.run({ command: ['/bin/sh', '-c', 'umask; echo private'], cwd: d.home, env: { PATH } });
    await until(async () => (await d.client.wait(t.id, 5)).task.status === 'exited');
    expect(notPrivate(d.paths.stateDir)).toEqual([]);
    expect((await d.client.output(t.id)).data.toString()).toBe('0000\nprivate\n');

    // A daemon killed with -9 leaves its socket; a widened one is replaced by a private one.
    await d.stop('SIGKILL');
    chmodSync(d.paths.socket, 0o666);
    chmodSync(d.paths.runtimeDir, 0o755);
    await start();
    check();
    expect(notPrivate(d.paths.stateDir)).toEqual([]);
    expect((await d.client.list(true)).map((x) => x.id)).toEqual([t.id]);
  });
});

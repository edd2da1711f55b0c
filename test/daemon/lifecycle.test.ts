import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, daemonsPerTest, runCli, until } from '../helpers/daemon.js';

const daemon = daemonsPerTest(afterEach);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('daemon lifecycle', () => {
  it('allows one daemon per home: a second start names the holder and fails', async () => {
    const d = daemon();
    await d.start();
    const second = await d.cli(['daemon'], { timeoutMs: 10_000 });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(`already running (pid ${d.proc?.pid}`);
  });

  it('keeps its socket private', async () => {
    const d = daemon();
    await d.start();
    expect(statSync(d.paths.socket).mode & 0o777).toBe(0o600);
    expect(statSync(d.paths.runtimeDir).mode & 0o777).toBe(0o700);
    expect(statSync(d.paths.stateDir).mode & 0o777).toBe(0o700);
  });

  it('stops on SIGTERM without killing tasks; the next daemon re-adopts them and records their exit', async () => {
    const d = daemon();
    await d.start();
    const id = (await d.cli(['run', '--', 'sh', '-c', 'for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 0.2; done; exit 5'])).stdout.trim();
    const t = await until(async () => {
      const task = await d.client.get(id);
      return task.state === 'running' && task.pid !== undefined && task.outputBytes > 0 && task;
    });
    expect(await d.stop('SIGTERM')).toBe(0);
    expect(existsSync(d.paths.socket)).toBe(false);
    expect(alive(t.state === 'running' ? (t.pid ?? 0) : 0)).toBe(true);
    await d.start();
    expect((await d.cli(['wait', id])).code).toBe(5);
    const out = (await d.cli(['output', id])).stdout;
    expect(out).toBe(Array.from({ length: 8 }, (_, i) => `tick ${i + 1}\n`).join(''));
  });

  it('keeps `tail -f` going across a daemon restart without repeating or losing output', async () => {
    const d = daemon();
    await d.start();
    const id = (await d.cli(['run', '--', 'sh', '-c', 'for i in $(seq 1 40); do echo n$i; sleep 0.1; done'])).stdout.trim();
    const tail = spawn(process.execPath, [CLI, 'tail', id, '-n', '100', '-f'], { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    tail.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    tail.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const ended = new Promise<number | null>((r) => tail.once('close', r));
    // The kill comes once the follower is under way (its first lines are out), however slow its start.
    await until(() => stdout.includes('n2\n'), 20_000);
    expect(stdout, 'the follower should still be following when the daemon dies').not.toContain('n40\n');
    await d.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    await d.start();
    expect(await ended, stderr).toBe(0);
    expect(stdout).toBe(Array.from({ length: 40 }, (_, i) => `n${i + 1}\n`).join(''));
  });

  it('marks a task lost, with the reason, when its outcome cannot be known', async () => {
    const d = daemon();
    await d.start();
    const id = (await d.cli(['run', '--', 'sleep', '60'])).stdout.trim();
    const t = await until(async () => {
      const task = await d.client.get(id);
      return task.state === 'running' && task.pid !== undefined && existsSync(join(d.paths.tasksDir, id, 'child.pid')) && task;
    });
    await d.stop('SIGKILL');
    // Kill the wrapper and the command while no daemon watches: nobody recorded the status.
    const childPid = Number(readFileSync(join(d.paths.tasksDir, id, 'child.pid'), 'utf8'));
    const wrapperPid = Number(readFileSync(`/proc/${childPid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    process.kill(wrapperPid, 'SIGKILL');
    process.kill(-childPid, 'SIGKILL');
    await until(() => !alive(childPid) || readFileSync(`/proc/${childPid}/stat`, 'utf8').includes(') Z'));
    await d.start();
    const lost = await until(async () => {
      const task = await d.client.get(id);
      return task.status === 'lost' && task;
    });
    expect(lost.status === 'lost' && lost.reason).toMatch(/wrapper was killed/);
    expect(t.id).toBe(id);
    expect((await d.cli(['wait', id])).code).toBe(255);
  });

  it('sweeps finished tasks older than the retention period', async () => {
    const d = daemon({ retentionDays: 14 });
    await d.start();
    const id = (await d.cli(['run', '--', 'true'])).stdout.trim();
    await d.cli(['wait', id]);
    await d.stop();
    d.env.NIGHTSHIFT_CLOCK_OFFSET_MS = String(13 * 24 * 3600 * 1000);
    await d.start();
    await new Promise((r) => setTimeout(r, 300));
    expect((await d.client.get(id)).status).toBe('exited');
    await d.stop();
    d.env.NIGHTSHIFT_CLOCK_OFFSET_MS = String(15 * 24 * 3600 * 1000);
    await d.start();
    await until(async () => (await d.cli(['show', id])).code !== 0);
    expect(existsSync(join(d.paths.tasksDir, id))).toBe(false);
  });

  it('is started in the background by the CLI when not running, and says so', async () => {
    const d = daemon();
    const env = { ...d.env, NIGHTSHIFT_NO_AUTOSTART: '0' };
    const r = await runCli(['status', '--json'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/started the daemon in the background \(pid \d+/);
    const pid = JSON.parse(r.stdout).pid as number;
    const again = await runCli(['status', '--json'], env);
    expect(again.stderr).toBe('');
    process.kill(pid, 'SIGTERM');
    // Gone, not only its socket: it writes its state after closing the socket, and the home is removed next.
    await until(() => !existsSync(d.paths.socket) && !alive(pid));
  });

  it('does not start the daemon when NIGHTSHIFT_NO_AUTOSTART=1', async () => {
    const d = daemon();
    const r = await d.cli(['ps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/daemon is not running/);
    expect(existsSync(d.paths.socket)).toBe(false);
  });

  it('refuses an invalid config with a message naming the file', async () => {
    const d = daemon({ maxParallel: 'lots' });
    const r = await d.cli(['daemon']);
    expect(r.code).toBe(78);
    expect(r.stderr).toContain(d.paths.configFile);
    expect(r.stderr).toMatch(/maxParallel/);
  });
});

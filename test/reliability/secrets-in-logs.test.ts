import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { runCli, TestDaemon, until } from '../helpers/daemon.js';
import { rawRequest } from '../helpers/raw-http.js';

const daemons: TestDaemon[] = [];
const pids: number[] = [];
afterEach(async () => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

/** Running (a zombie waiting for its reaper counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
};

const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('secrets in logs', () => {
  it('never logs task environments, the caller environment or bearer tokens', async () => {
    const taskSecret = `tasksecret${randomBytes(12).toString('hex')}`;
    const cliSecret = `clisecret${randomBytes(12).toString('hex')}`;
    const wrongToken = `wrongtoken${randomBytes(12).toString('hex')}`;
    const inputSecret = `inputsecret${randomBytes(12).toString('hex')}`;
    // maxParallel 1 puts tasks in the queue (their environment waits on disk); trace logs everything.
    const d = new TestDaemon({ logLevel: 'trace', maxParallel: 1, notifyCommand: 'exit 3', tcp: { host: '127.0.0.1', port: 0 } });
    daemons.push(d);
    await d.start();
    const token = readFileSync(d.paths.tokenFile, 'utf8').trim();
    const status = await d.client.status();
    const tcp = new ApiClient({ url: status.tcp ?? '', token });
    const port = Number(new URL(status.tcp ?? '').port);
    const cliEnv = { MY_API_KEY: cliSecret };
    const env = ['--env', `SECRET_TOKEN=${taskSecret}`];

    // Through the CLI: a running task that reads stdin, one queued behind it, one killed while queued.
    const reader = (await d.cli(['run', ...env, '--', 'sh', '-c', 'read line; echo "got ${#line} chars"; sleep 0.3; exit 3'], { env: cliEnv })).stdout.trim();
    const queued = (await d.cli(['run', ...env, '--', 'sh', '-c', 'echo queued ran'], { env: cliEnv })).stdout.trim();
    const dropped = (await d.cli(['run', ...env, '--', 'true'], { env: cliEnv })).stdout.trim();
    expect((await d.client.get(queued)).status).toBe('queued');
    expect((await d.cli(['kill', dropped], { env: cliEnv })).code).toBe(0);
    expect((await d.cli(['send', reader, inputSecret], { env: cliEnv })).code).toBe(0);

    // Errors with secrets around: bad command, bad cwd, bad env (NUL in a value), bad JSON, bad fields.
    expect((await d.cli(['run', ...env, '--', `/nonexistent/${taskSecret}`], { env: cliEnv })).code).not.toBe(0);
    expect((await d.cli(['run', ...env, '--cwd', `/nonexistent-${taskSecret}`, '--', 'true'], { env: cliEnv })).code).not.toBe(0);
    const auth = { authorization: `Bearer ${token}` };
    const target = { host: '127.0.0.1', port };
    const bad = [
      JSON.stringify({ command: ['true'], cwd: '/tmp', env: { SECRET_TOKEN: `${taskSecret}\u0000` } }),
      JSON.stringify({ command: ['true'], cwd: '/tmp', env: { [`BAD=${taskSecret}`]: taskSecret } }),
      JSON.stringify({ command: ['true'], cwd: '/tmp', env: { SECRET_TOKEN: taskSecret }, token }),
      `{"command":["true"],"cwd":"/tmp","env":{"SECRET_TOKEN":"${taskSecret}"`,
      JSON.stringify({ command: ['true'], cwd: '/tmp', env: { SECRET_TOKEN: taskSecret.repeat(20_000) } }),
    ];
    const badStatuses: number[] = [];
    for (const body of bad) {
      const res = await rawRequest(target, { method: 'POST', path: '/v1/tasks', headers: { ...auth, 'content-type': 'application/json' }, body });
      badStatuses.push(res.status);
    }
    // Wrong and missing tokens, the token in odd places.
    for (const headers of [{ authorization: `Bearer ${wrongToken}` }, { authorization: wrongToken }, {}, { 'x-token': token }] as Record<string, string>[]) {
      expect((await rawRequest(target, { method: 'GET', path: `/v1/status?token=${wrongToken}`, headers })).status).toBe(401);
    }
    // Good requests over TCP with the token, including a task with a secret environment.
    const viaTcp = await tcp.run({ command: ['sh', '-c', 'echo tcp task'], cwd: d.home, env: { PATH, SECRET_TOKEN: taskSecret }, stdin: false });
    await tcp.list(true);
    await tcp.output(reader);

    const waitEnd = (id: string) =>
      until(async () => {
        const r = await d.client.wait(id, 5);
        return !r.timedOut && r.task;
      }, 20_000);
    expect(await waitEnd(reader)).toMatchObject({ status: 'exited', exitCode: 3 });
    await waitEnd(queued);
    await waitEnd(viaTcp.id);
    expect((await d.client.output(reader)).data.toString()).toBe(`got ${inputSecret.length} chars\n`);

    // A restart while a task with a secret environment runs: re-adoption is logged too.
    const sleeper = (await d.cli(['run', ...env, '--', 'sleep', '30'], { env: cliEnv })).stdout.trim();
    await until(async () => (await d.client.get(sleeper)).status === 'running');
    await d.restart();
    expect((await d.cli(['kill', sleeper])).code).toBe(0);
    await waitEnd(sleeper);
    await d.stop();

    // The CLI starts the daemon itself (log in <state>/daemon.log), with the secret in its environment.
    const autoEnv: Record<string, string> = { ...d.env, ...cliEnv };
    delete autoEnv.NIGHTSHIFT_NO_AUTOSTART;
    const started = await runCli(['run', ...env, '--', 'sh', '-c', 'exit 0'], autoEnv);
    expect(started.code).toBe(0);
    expect(started.stderr).toContain('started the daemon');
    const auto = await d.client.status();
    pids.push(auto.pid);
    await runCli(['wait', started.stdout.trim()], autoEnv);
    const autoTarget = { host: '127.0.0.1', port: Number(new URL(auto.tcp ?? '').port) };
    expect((await rawRequest(autoTarget, { method: 'GET', path: '/v1/status', headers: { authorization: `Bearer ${wrongToken}` } })).status).toBe(401);
    expect((await rawRequest(autoTarget, { method: 'GET', path: '/v1/tasks', headers: auth })).status).toBe(200);
    await rawRequest({ socketPath: d.paths.socket }, { method: 'POST', path: '/v1/tasks', body: bad[0] ?? '' });
    process.kill(auto.pid, 'SIGTERM');
    await until(() => !alive(auto.pid), 10_000);
    pids.splice(pids.indexOf(auto.pid), 1); // gone: never signal a pid that may be reused
    await sleep(50);

    // The logs are not empty (so the check means something), and hold none of the secrets.
    expect(d.log).toMatch(/task started/);
    expect(d.log).toMatch(/re-adopted running tasks/);
    expect(d.log).toMatch(/task signalled/);
    expect(existsSync(d.paths.daemonLog)).toBe(true);
    const daemonLog = readFileSync(d.paths.daemonLog, 'utf8');
    expect(daemonLog).toMatch(/nightshift daemon ready/);
    for (const [what, secret] of Object.entries({ taskSecret, cliSecret, token, wrongToken, inputSecret })) {
      expect(d.log.includes(secret), `${what} in the daemon's output`).toBe(false);
      expect(daemonLog.includes(secret), `${what} in ${d.paths.daemonLog}`).toBe(false);
    }
    expect(
      badStatuses.every((s) => s >= 400 && s < 500),
      `statuses ${badStatuses}`,
    ).toBe(true);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, stringEnv } from '../helpers/daemon.js';

const config = mkdtempSync('/tmp/ns-xdg-');
afterAll(() => rmSync(config, { recursive: true, force: true }));
// NIGHTSHIFT_SYSTEMCTL=none stands for a machine without a user systemd instance.
const env = { ...stringEnv(), XDG_CONFIG_HOME: config, NIGHTSHIFT_SYSTEMCTL: 'none', NIGHTSHIFT_NO_AUTOSTART: '1' };
const unit = join(config, 'systemd', 'user', 'nightshift.service');

describe('nightshift service', () => {
  it('writes the user unit and prints the commands to enable it when systemd is not there', async () => {
    const r = await runCli(['service', 'install'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${unit}`);
    expect(r.stdout).toContain('systemctl --user daemon-reload');
    expect(r.stdout).toContain('systemctl --user enable --now nightshift.service');
    expect(r.stdout).toContain('loginctl enable-linger');
    const text = readFileSync(unit, 'utf8');
    expect(text).toContain(`ExecStart=${process.execPath} ${CLI} daemon`);
    for (const line of ['Type=exec', 'Restart=on-failure', 'KillMode=process', 'RuntimeDirectory=nightshift']) {
      expect(text).toContain(line);
    }
    expect(text).not.toMatch(/^MemoryDenyWriteExecute=yes/m);
  });

  it('reports and removes the unit', async () => {
    const s = JSON.parse((await runCli(['service', 'status', '--json'], env)).stdout);
    expect(s).toMatchObject({ unitFile: unit, installed: true });
    const r = await runCli(['service', 'uninstall'], env);
    expect(r.code).toBe(0);
    expect(existsSync(unit)).toBe(false);
  });
});

/**
 * Settings that make systemd set NoNewPrivileges=yes whatever the unit says (systemd.exec(5),
 * "NoNewPrivileges="), and those that give the service a mount namespace, where file systems are
 * mounted nosuid: with either, sudo and every setuid program fail inside the tasks.
 */
const BREAK_SETUID = [
  'NoNewPrivileges',
  'DynamicUser',
  'LockPersonality',
  'MemoryDenyWriteExecute',
  'PrivateDevices',
  'ProtectClock',
  'ProtectHostname',
  'ProtectKernelLogs',
  'ProtectKernelModules',
  'ProtectKernelTunables',
  'RestrictAddressFamilies',
  'RestrictNamespaces',
  'RestrictRealtime',
  'RestrictSUIDSGID',
  'SystemCallArchitectures',
  'SystemCallFilter',
  'SystemCallLog',
  'ProtectSystem',
  'ProtectHome',
  'PrivateTmp',
  'ReadOnlyPaths',
  'InaccessiblePaths',
  'TemporaryFileSystem',
  'PrivateMounts',
  'ProtectProc',
];

function directives(unitText: string): string[] {
  return unitText
    .split('\n')
    .filter((l) => /^[A-Za-z]+=/.test(l))
    .map((l) => l.slice(0, l.indexOf('=')));
}

function available(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 5000 });
  return !r.error;
}

describe('the systemd unit', () => {
  it('sets nothing that takes setuid away from tasks, nor their umask, and says why; its documentation is this README', async () => {
    const text = (await runCli(['service', 'install', '--no-enable'], env), readFileSync(unit, 'utf8'));
    const set = directives(text);
    expect(set.filter((d) => BREAK_SETUID.includes(d))).toEqual([]);
    expect(set).not.toContain('UMask');
    expect(text).toMatch(/^# .*imply NoNewPrivileges=yes/m);
    expect(text).toMatch(/sudo and every other setuid program would fail/);
    const doc = /^Documentation=(.+)$/m.exec(text)?.[1] ?? '';
    expect(doc).toMatch(/^file:\/\//);
    expect(readFileSync(fileURLToPath(doc), 'utf8')).toContain('# nightshift');
  });

  it('passes systemd-analyze verify (a user unit, as the user manager would load it)', async (ctx) => {
    if (!available('systemd-analyze', ['--version'])) ctx.skip(true, 'systemd-analyze is not installed (Debian: apt-get install systemd)');
    await runCli(['service', 'install', '--no-enable'], env);
    const runtime = mkdtempSync('/tmp/ns-sdrun-');
    try {
      const r = spawnSync('systemd-analyze', ['--user', 'verify', unit], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: config },
      });
      expect(r.status, r.stderr).toBe(0);
      // verify exits 0 on unknown keys and bad values too: it only warns. None of its lines may be about our unit.
      expect(r.stderr.split('\n').filter((l) => l.includes('nightshift.service'))).toEqual([]);
    } finally {
      rmSync(runtime, { recursive: true, force: true });
    }
  });

  it('runs tasks that can gain privileges through setuid (under a real user systemd)', async (ctx) => {
    const up = spawnSync('systemctl', ['--user', 'is-system-running'], { encoding: 'utf8', timeout: 5000 });
    if (up.error || !['running', 'degraded'].includes(up.stdout.trim()))
      ctx.skip(true, 'no systemd user instance here (systemctl --user is-system-running does not answer): nothing can start the unit');
    // The unit's own [Service] settings, on a transient unit running the daemon in a temporary home.
    const text = (await runCli(['service', 'install', '--no-enable'], env), readFileSync(unit, 'utf8'));
    const service = text.slice(text.indexOf('[Service]'), text.indexOf('[Install]'));
    const props = service.split('\n').filter((l) => /^[A-Za-z]+=/.test(l) && !/^(ExecStart|Type|Environment)=/.test(l));
    const home = mkdtempSync('/tmp/ns-sd-');
    const name = `nightshift-test-${process.pid}`;
    try {
      const started = spawnSync(
        'systemd-run',
        ['--user', `--unit=${name}`, ...props.flatMap((p) => ['-p', p]), `--setenv=NIGHTSHIFT_HOME=${home}`, process.execPath, CLI, 'daemon'],
        { encoding: 'utf8' },
      );
      expect(started.status, started.stderr).toBe(0);
      const nsEnv = { ...stringEnv(), NIGHTSHIFT_HOME: home, NIGHTSHIFT_NO_AUTOSTART: '1' };
      let id = '';
      for (let i = 0; i < 100 && !id; i++) {
        const r = await runCli(['run', '--', 'grep', 'NoNewPrivs', '/proc/self/status'], nsEnv);
        if (r.code === 0) id = r.stdout.trim();
        else await new Promise((r2) => setTimeout(r2, 100));
      }
      expect(id).not.toBe('');
      await runCli(['wait', id], nsEnv);
      expect((await runCli(['output', id], nsEnv)).stdout).toMatch(/^NoNewPrivs:\s+0$/m);
    } finally {
      spawnSync('systemctl', ['--user', 'stop', name]);
      rmSync(home, { recursive: true, force: true });
    }
  });
});

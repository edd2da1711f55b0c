import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
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

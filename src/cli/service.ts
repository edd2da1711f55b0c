import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { INSTALL } from '../paths.js';
import { printJson } from './print-json.js';

const UNIT = 'nightshift.service';

function unitDir(): string {
  const base = process.env.XDG_CONFIG_HOME || join(process.env.HOME ?? homedir(), '.config');
  return join(base, 'systemd', 'user');
}

/** The unit shipped in systemd/, with this installation's node and CLI filled in. */
export function renderUnit(): string {
  const template = readFileSync(join(INSTALL.root, 'systemd', 'nightshift.service'), 'utf8');
  const home = process.env.NIGHTSHIFT_HOME ? `Environment=NIGHTSHIFT_HOME=${process.env.NIGHTSHIFT_HOME}\n` : '';
  return template
    .replace('@NODE@', process.execPath)
    .replace('@CLI@', INSTALL.cli)
    .replace('@README@', pathToFileURL(join(INSTALL.root, 'README.md')).href)
    .replace('Environment=NODE_ENV=production\n', `Environment=NODE_ENV=production\n${home}`);
}

/** True when a user systemd instance answers (not the case in containers or over plain ssh without a session bus). */
async function userSystemd(): Promise<boolean> {
  if (process.env.NIGHTSHIFT_SYSTEMCTL === 'none') return false;
  const { execa } = await import('execa'); // loaded only here: it is heavy for every other command
  const r = await execa('systemctl', ['--user', 'is-system-running'], { reject: false, timeout: 5000 });
  // Prints the manager's state (running, degraded, …) when it answers; nothing when there is no bus.
  return ['running', 'degraded', 'starting', 'initializing', 'maintenance'].includes(String(r.stdout).trim());
}

async function systemctl(args: string[]): Promise<{ ok: boolean; out: string }> {
  const { execa } = await import('execa');
  const r = await execa('systemctl', ['--user', ...args], { reject: false, timeout: 15_000, all: true });
  return { ok: !r.failed, out: String(r.all ?? '').trim() };
}

export function registerServiceCommands(program: Command): void {
  const service = program.command('service').description('install or remove the systemd user service');

  service
    .command('install')
    .description(`write ${UNIT} to the user's systemd directory and enable it`)
    .option('--no-enable', 'write the unit only')
    .action(async (o: { enable: boolean }) => {
      const dir = unitDir();
      const file = join(dir, UNIT);
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, renderUnit());
      process.stdout.write(`wrote ${file}\n`);
      const commands = ['systemctl --user daemon-reload', `systemctl --user enable --now ${UNIT}`];
      if (o.enable && (await userSystemd())) {
        for (const c of commands) {
          const r = await systemctl(c.split(' ').slice(2));
          if (!r.ok) throw new Error(`${c} failed: ${r.out}`);
        }
        process.stdout.write(`enabled and started ${UNIT}\n`);
      } else {
        process.stdout.write(`systemd (user instance) is not available here; to enable it, run:\n  ${commands.join('\n  ')}\n`);
      }
      process.stdout.write(`to keep the daemon running when you are logged out: loginctl enable-linger ${process.env.USER ?? '$USER'}\n`);
    });

  service
    .command('uninstall')
    .description('stop, disable and remove the user service (running tasks are not killed)')
    .action(async () => {
      const file = join(unitDir(), UNIT);
      if (await userSystemd()) await systemctl(['disable', '--now', UNIT]);
      else process.stdout.write(`systemd (user instance) is not available; if it was enabled elsewhere run: systemctl --user disable --now ${UNIT}\n`);
      if (existsSync(file)) {
        rmSync(file);
        process.stdout.write(`removed ${file}\n`);
      } else {
        process.stdout.write(`${file} was not installed\n`);
      }
    });

  service
    .command('status')
    .description('show whether the unit is installed, enabled and active')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const file = join(unitDir(), UNIT);
      const installed = existsSync(file);
      const sd = await userSystemd();
      const enabled = sd ? (await systemctl(['is-enabled', UNIT])).out || 'unknown' : 'unknown (no systemd user instance)';
      const active = sd ? (await systemctl(['is-active', UNIT])).out || 'unknown' : 'unknown (no systemd user instance)';
      const s = { unitFile: file, installed, enabled, active };
      if (o.json) return printJson(s);
      process.stdout.write(`unit:    ${file} (${installed ? 'installed' : 'not installed'})\nenabled: ${enabled}\nactive:  ${active}\n`);
    });
}

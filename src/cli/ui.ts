import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { withDaemon } from '../client/connect.js';
import { printJson } from './print-json.js';

/** Opens the link in the desktop's browser: detached, its failure ignored (the link is printed anyway). */
function openBrowser(url: string): void {
  try {
    const child = spawn('xdg-open', [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no xdg-open: the printed link is enough
  }
}

/** Only on a desktop session, and only for a person at a terminal (not a script reading stdout). */
function canOpen(): boolean {
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && process.stdout.isTTY === true;
}

export function registerUiCommands(program: Command): void {
  program
    .command('ui')
    .description('turn the web dashboard on (127.0.0.1 only) and print a one-time login link; opens the browser on a desktop')
    .option('--no-open', 'do not open the browser')
    .option('--off', 'turn the dashboard off (it stays off across restarts) and end its sessions')
    .option('--json', 'print JSON')
    .action(async (o: { open: boolean; off?: boolean; json?: boolean }) => {
      if (o.off) {
        const r = await withDaemon((c) => c.disableUi());
        if (o.json) return printJson(r);
        process.stdout.write('dashboard off\n');
        return;
      }
      const r = await withDaemon((c) => c.enableUi());
      if (o.json) return printJson(r);
      process.stdout.write(`dashboard: ${r.url}\nlog in (once, within 2 minutes): ${r.loginUrl}\nturn it off: nightshift ui --off\n`);
      if (o.open && canOpen()) openBrowser(r.loginUrl);
    });
}

import type { Command } from 'commander';
import { OUTCOME_KINDS, OUTCOMES } from '../api/task-status.js';
import { withDaemon } from '../client/connect.js';
import { printJson } from './print-json.js';

export function registerDaemonCommands(program: Command): void {
  program
    .command('daemon')
    .description('run the daemon in the foreground (systemd and `npm start` run this)')
    .option('--recover', 'move a corrupt state file aside and rebuild the task list from the task directories')
    .action(async (o: { recover?: boolean }) => {
      const { runDaemon } = await import('../daemon/main.js');
      // Exit at once when done: state is saved and logs are written synchronously by then.
      process.exit(await runDaemon({ recover: Boolean(o.recover) }));
    });

  program
    .command('reload')
    .description('read the config file again and apply it without a restart (as SIGHUP does); says what waits for a restart')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await withDaemon((c) => c.reload());
      if (o.json) return printJson(r);
      const lines = [r.applied.length > 0 ? `config reloaded; applied: ${r.applied.join(', ')}` : 'config reloaded; nothing to apply'];
      if (r.needsRestart.length > 0) lines.push(`changed, but applied only when the daemon restarts: ${r.needsRestart.join(', ')}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  program
    .command('status')
    .description('show whether the daemon runs, its version, pid, uptime, socket, task and memory counts')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const s = await withDaemon((c) => c.status());
      if (o.json) return printJson(s);
      const t = s.tasks;
      process.stdout.write(
        [
          `nightshift ${s.version}, daemon pid ${s.pid}, up ${s.uptimeSeconds}s`,
          `socket: ${s.socket}${s.tcp ? `  tcp: ${s.tcp}` : ''}`,
          `state:  ${s.stateDir}`,
          `tasks:  ${t.running} running (${t.attention} need attention), ${t.queued} queued, ${OUTCOME_KINDS.map((k) => `${t[k]} ${OUTCOMES[k].name}`).join(', ')}`,
          ...(s.memory
            ? [
                `memory: ${s.memory.memories} memories, ${s.memory.sessions} sessions (${s.memory.episodes} indexed messages), extractor ${s.memory.extractor}${s.memory.ingesting ? ', ingesting now' : ''}${s.memory.loading ? ', still loading' : ''}`,
              ]
            : []),
          ...(s.dream
            ? [
                `dream:  ${s.dream.running ? 'running now; ' : ''}next ${s.dream.next ?? 'never (schedule off)'}, last ${s.dream.lastDream ?? 'never'}, ${s.dream.sessionsSince ?? 0} sessions since; ` +
                  (s.dream.wouldRun
                    ? 'gates pass'
                    : `waiting for: ${Object.entries(s.dream.gates ?? {})
                        .filter(([, ok]) => !ok)
                        .map(([g]) => g)
                        .join(', ')}`),
              ]
            : []),
          ...(s.monitors && s.monitors.up + s.monitors.degraded + s.monitors.down + s.monitors.pending > 0
            ? [
                `mcp:    ${s.monitors.up} up, ${s.monitors.down} down${s.monitors.degraded ? `, ${s.monitors.degraded} degraded` : ''}${s.monitors.pending ? `, ${s.monitors.pending} not checked yet` : ''} (nightshift monitors)`,
              ]
            : []),
        ].join('\n') + '\n',
      );
    });
}

import type { Command } from 'commander';
import { OVERLAP, type ScheduleView } from '../api/schedules.js';
import { withDaemon } from '../client/connect.js';
import { addSchedule, getSchedule, listSchedules, pauseSchedule, removeSchedule } from '../client/schedules.js';
import { AppError } from '../errors.js';
import { ago, clipColumns, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';
import { envPair, resolvePath } from './values.js';

const HELP = `
A schedule starts a task (as \`nightshift run\` would) each time its cron expression fires; the
task carries the schedule's id and name (\`ps\` shows them). Cron expressions have 5 fields
(minute hour day-of-month month day-of-week) or 6 with seconds first; the time is the daemon's
local time unless --tz names an IANA zone.

Overlap, when a firing comes while the previous firing's task still runs:
  skip   (default) drop the firing
  allow  start another task anyway
  queue  start it when the running task ends (at most one waits)

--catch-up: a firing missed while the daemon was down runs once when it starts again.
The task gets the daemon's environment plus the --env values (kept in the state dir, 0600);
its stdin is /dev/null. Schedules survive restarts (<state>/schedules.json).

Examples:
  nightshift schedule add "0 3 * * *" --name nightly -- npm run e2e
  nightshift schedule add "*/30 * * * * *" --overlap queue -- ./poll.sh
  nightshift schedule show nightly`;

function oneOf(v: string): (typeof OVERLAP)[number] {
  const hit = OVERLAP.find((o) => o === v);
  if (!hit) throw new AppError('bad_request', `--overlap takes ${OVERLAP.join(', ')}, got "${v}"`);
  return hit;
}

function who(s: ScheduleView): string {
  return s.name ?? s.id;
}

function describe(s: ScheduleView): string {
  const lines = [
    `schedule ${s.id}${s.name ? ` (${s.name})` : ''}: ${s.paused ? 'paused' : 'active'}${s.waiting ? ', a firing waits for the running task' : ''}`,
    `cron:     ${s.cron}${s.tz ? ` (${s.tz})` : ' (local time)'}; overlap ${s.overlap}${s.catchUp ? '; catch-up' : ''}`,
    `command:  ${s.command.join(' ')}`,
    `cwd:      ${s.cwd}${s.envKeys.length ? `; env ${s.envKeys.join(', ')}` : ''}`,
    `next:     ${s.next.length ? s.next.join(', ') : '-'}`,
    s.firings.length ? 'firings:' : 'firings:  none yet',
  ];
  for (const f of [...s.firings].reverse())
    lines.push(`  ${f.at}  ${f.outcome.padEnd(8)} ${f.taskId ? `task ${f.taskId}` : ''}${f.catchUp ? ' (catch-up)' : ''}${f.error ? ` ${f.error}` : ''}`);
  return `${lines.join('\n')}\n`;
}

export function registerScheduleCommands(program: Command): void {
  const schedule = program
    .command('schedule')
    .description('run tasks on a cron schedule: add, list, show, pause, resume, remove')
    .enablePositionalOptions()
    .addHelpText('after', HELP);
  schedule
    .command('add')
    .description('add a schedule; prints its id')
    .argument('<cron>', 'cron expression, e.g. "0 3 * * *" (quote it)')
    .argument('<command...>', 'command and arguments (after --); one argument with shell syntax runs under sh -c')
    .option('--name <name>', 'a name for the schedule (its tasks get it too)')
    .option('--tz <zone>', 'IANA time zone, e.g. Europe/Berlin (default: local time)')
    .option('--overlap <policy>', 'skip | allow | queue (default skip)', oneOf)
    .option('--catch-up', 'run a firing missed while the daemon was down, once, at its start')
    .option('--cwd <dir>', 'working directory (default: the current one)')
    .option('--env <KEY=VALUE>', 'set an environment variable (repeatable)', envPair, {})
    .option('--json', 'print the schedule as JSON')
    .addHelpText('after', HELP)
    .action(
      async (
        cron: string,
        command: string[],
        o: { name?: string; tz?: string; overlap?: (typeof OVERLAP)[number]; catchUp?: boolean; cwd?: string; env: Record<string, string>; json?: boolean },
      ) => {
        const s = await withDaemon((c) =>
          addSchedule(c, {
            cron,
            command,
            cwd: o.cwd ? resolvePath(o.cwd) : process.cwd(),
            catchUp: Boolean(o.catchUp),
            ...(o.overlap && { overlap: o.overlap }),
            ...(o.name !== undefined && { name: o.name }),
            ...(o.tz !== undefined && { tz: o.tz }),
            ...(Object.keys(o.env).length > 0 && { env: o.env }),
          }),
        );
        if (o.json) printJson(s);
        else process.stdout.write(`${s.id}\n`);
      },
    );
  schedule
    .command('list')
    .description('every schedule: cron, state, next firing, last firing')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const list = await withDaemon((c) => listSchedules(c));
      if (o.json) return printJson(list);
      if (list.length === 0) return void process.stdout.write('no schedules\n');
      await loadWidths();
      const rows = list.map((s) => [
        s.id,
        clipColumns(s.name ?? '-', 30),
        s.cron + (s.tz ? ` ${s.tz}` : ''),
        s.paused ? 'paused' : 'active',
        s.next[0] ?? '-',
        s.lastFiredAt ? `${ago(s.lastFiredAt)} ago` : '-',
        clipColumns(s.command.join(' '), 50),
      ]);
      process.stdout.write(`${table(['ID', 'NAME', 'CRON', 'STATE', 'NEXT', 'LAST', 'COMMAND'], rows)}\n`);
    });
  schedule
    .command('show')
    .description('one schedule: next firing times, latest firings and their tasks')
    .argument('<id-or-name>')
    .option('--json', 'print JSON')
    .action(async (ref: string, o: { json?: boolean }) => {
      const s = await withDaemon((c) => getSchedule(c, ref));
      if (o.json) printJson(s);
      else process.stdout.write(describe(s));
    });
  for (const [name, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const)
    schedule
      .command(name)
      .description(paused ? 'stop a schedule firing (kept; `resume` starts it again)' : 'let a paused schedule fire again')
      .argument('<id-or-name>')
      .option('--json', 'print the schedule as JSON')
      .action(async (ref: string, o: { json?: boolean }) => {
        const s = await withDaemon((c) => pauseSchedule(c, ref, paused));
        if (o.json) printJson(s);
        else process.stderr.write(`schedule ${who(s)} ${paused ? 'paused' : 'resumed'}\n`);
      });
  schedule
    .command('remove')
    .alias('rm')
    .description('remove a schedule (the tasks it started stay)')
    .argument('<id-or-name>')
    .action(async (ref: string) => {
      await withDaemon((c) => removeSchedule(c, ref));
    });
}

import type { Command } from 'commander';
import { MAX_READ_BYTES, type TaskStatus } from '../api/tasks.js';
import { STATUS_FILTERS } from '../api/task-status.js';
import { AppError } from '../errors.js';
import { withDaemon } from '../client/connect.js';
import { followOutput } from '../client/follow.js';
import { commandLine, humanBytes, statusLabel } from '../client/format.js';
import { ago, clipColumns, describeTask, loadWidths, table } from './format.js';
import { withFlatStatus } from '../api/task-json.js';
import { printJson } from './print-json.js';
import { printOutput, runTask, waitTask, type RunOptions } from './task-actions.js';
import { addFlags, OUTPUT_FLAGS, RUN_FLAGS, WAIT_FLAGS } from './task-flags.js';
import { labelPair, nonNegInt } from './values.js';

export { nonNegInt } from './values.js';

function taskStatus(v: string): TaskStatus | 'finished' {
  const s = STATUS_FILTERS.find((x) => x === v);
  if (!s) throw new AppError('bad_request', `--status must be one of ${STATUS_FILTERS.join(', ')}, got "${v}"`);
  return s;
}

export function registerTaskCommands(program: Command): void {
  addFlags(
    program
      .command('run')
      .description('start a background task; prints its id')
      .argument('<command...>', 'command and arguments (after --); one argument with shell syntax runs under sh -c'),
    RUN_FLAGS,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  nightshift run -- npm test\n  nightshift run --name build -- "make -j4 2>&1 | tee build.txt"\n' +
        '  b=$(nightshift run -- make) && nightshift run --after "$b" -- make install\n  nightshift run --group ci --timeout 10m -- npm test',
    )
    .action((command: string[], o: RunOptions) => runTask(withDaemon, command, o));

  program
    .command('ps')
    .description('list tasks (running and queued; --all adds finished ones)')
    .option('-a, --all', 'include finished tasks')
    .option('--group <name>', 'only the tasks of this group')
    .option('--label <KEY=VALUE>', 'only tasks with this label (repeatable: all of them)', labelPair)
    .option('--status <status>', `only tasks in this state (finished ones too): ${STATUS_FILTERS.join(', ')}`, taskStatus)
    .option('--json', 'print JSON')
    .action(async (o: { all?: boolean; group?: string; status?: TaskStatus | 'finished'; label?: Record<string, string>; json?: boolean }) => {
      const filter = { ...(o.group ? { group: o.group } : {}), ...(o.status ? { status: o.status } : {}), ...(o.label ? { labels: o.label } : {}) };
      const tasks = await withDaemon((c) => c.list(Boolean(o.all), filter));
      if (o.json) return printJson(tasks);
      await loadWidths();
      if (tasks.length === 0) {
        process.stdout.write(o.all ? 'no tasks\n' : 'no running tasks (see --all)\n');
        return;
      }
      const rows = tasks.map((t) => [
        t.id,
        // A task a schedule started says which: `[s3]`.
        clipColumns(`${t.name ?? '-'}${t.schedule ? ` [${t.schedule.id}]` : ''}`, 40),
        statusLabel(t),
        'pid' in t && t.pid !== undefined ? String(t.pid) : '-',
        ago('startedAt' in t ? t.startedAt : t.createdAt),
        humanBytes(t.outputBytes),
        clipColumns(commandLine(t.command), 60),
      ]);
      process.stdout.write(`${table(['ID', 'NAME', 'STATUS', 'PID', 'AGE', 'OUTPUT', 'COMMAND'], rows)}\n`);
    });

  program
    .command('show')
    .description('show one task: status, pid, exit code, output size, times, attention')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const t = await withDaemon((c) => c.get(id));
      if (o.json) printJson(t);
      else process.stdout.write(`${describeTask(t)}\n`);
    });

  addFlags(program.command('output').description('write the raw output bytes from an offset').argument('<id>'), OUTPUT_FLAGS).action(
    (id: string, o: { offset: number; limit?: number; json?: boolean }) => printOutput(withDaemon, id, o),
  );

  program
    .command('tail')
    .description('print the last lines of the output; with -f, follow until the task ends')
    .argument('<id>')
    .option('-n, --lines <n>', 'number of lines', nonNegInt('--lines'), 10)
    .option('-f, --follow', 'keep printing new output until the task ends and all of it was shown')
    .option('--json', 'print {data, offset, nextOffset, ...} for the last lines (not with -f)')
    .action(async (id: string, o: { lines: number; follow?: boolean; json?: boolean }) => {
      const { data, meta } = await withDaemon((c) => c.output(id, { lines: o.lines, limit: MAX_READ_BYTES, text: Boolean(o.json) }));
      if (o.json) return printJson({ data: data.toString('utf8'), ...meta });
      process.stdout.write(data);
      if (o.follow) await followOutput(withDaemon, id, meta.nextOffset, (chunk) => process.stdout.write(chunk));
    });

  program
    .command('send')
    .description("write TEXT and a newline to the task's stdin")
    .argument('<id>')
    .argument('[text]', 'text to send', '')
    .option('--raw', 'send TEXT as is, without the newline')
    .option('--eof', 'close the stdin after sending')
    .option('--json', 'print the task as JSON')
    .action(async (id: string, text: string, o: { raw?: boolean; eof?: boolean; json?: boolean }) => {
      const payload = o.raw || (text === '' && o.eof) ? text : `${text}\n`;
      const t = await withDaemon((c) => c.input(id, payload, Boolean(o.eof)));
      if (o.json) printJson(t);
    });

  program
    .command('kill')
    .description("signal the task's whole process group (default SIGTERM)")
    .argument('<id>')
    .option('-s, --signal <name>', 'signal name, e.g. TERM, KILL, INT', 'SIGTERM')
    .option('--json', 'print the task as JSON')
    .action(async (id: string, o: { signal: string; json?: boolean }) => {
      const t = await withDaemon((c) => c.kill(id, o.signal));
      if (o.json) printJson(t);
    });

  addFlags(
    program.command('wait').description('wait for the task to end; exits with its exit code (128+signal when killed)').argument('<id>'),
    WAIT_FLAGS,
  ).action((id: string, o: { timeout?: number; json?: boolean }) => waitTask(withDaemon, id, o));

  program
    .command('rm')
    .description('remove a finished task and its output')
    .argument('<id...>')
    .action(async (ids: string[]) => {
      for (const id of ids) await withDaemon((c) => c.remove(id));
    });

  program
    .command('events')
    .description('stream task events (queued, started, attention, exited, removed) as they happen')
    .option('--json', 'one JSON object per line')
    .action(async (o: { json?: boolean }) => {
      if (!o.json) await loadWidths();
      await withDaemon((c) =>
        c.events((e) => {
          if (o.json) process.stdout.write(`${JSON.stringify(e, withFlatStatus)}\n`);
          else
            process.stdout.write(
              `${e.at}  ${e.type.padEnd(9)} ${e.task.id.padEnd(5)} ${statusLabel(e.task).padEnd(18)} ${clipColumns(e.task.name ?? commandLine(e.task.command), 50)}\n`,
            );
        }),
      );
    });
}

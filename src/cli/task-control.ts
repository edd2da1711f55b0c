/** `pause`, `resume` (a task or every one of a group) and `restart`. */
import type { Command } from 'commander';
import { withDaemon } from '../client/connect.js';
import { callerEnv } from '../client/env.js';
import { AppError } from '../errors.js';
import { printJson } from './print-json.js';

export function registerTaskControlCommands(program: Command): void {
  program
    .command('restart')
    .description(
      'start a finished task again as a new task (same command, cwd, name, stdin, group, timeout, labels, --retry and --retry-delay; linked by restartOf); prints the new id',
    )
    .argument('<id>')
    .option('--json', 'print the new task as JSON')
    .addHelpText(
      'after',
      "\nThe new task gets this command's environment, as `run` does: a task's own environment is not kept once it started.\nIt does not wait for the old task's dependencies (--after): it runs now, as soon as its group has room.",
    )
    .action(async (id: string, o: { json?: boolean }) => {
      const t = await withDaemon((c) => c.restart(id, callerEnv()));
      if (o.json) printJson(t);
      else process.stdout.write(`${t.id}\n`);
    });

  for (const [name, resume] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    program
      .command(name)
      .description(
        resume
          ? 'continue a paused task (SIGCONT to its process group); --group: every paused task of the group'
          : 'stop a running task (SIGSTOP to its whole process group) until `resume`; it stays running, marked paused, and is never taken for stalled; --group: every running task of the group',
      )
      .argument('[id]')
      .option('--group <name>', 'every running task of this group')
      .option('--json', 'print the task (with --group: the ids acted on) as JSON')
      .action(async (id: string | undefined, o: { group?: string; json?: boolean }) => {
        if ((id === undefined) === (o.group === undefined)) throw new AppError('bad_request', `${name} takes a task id or --group NAME`);
        const group = o.group;
        const out: unknown = await withDaemon(async (c) =>
          group !== undefined ? c.pauseGroup(group, resume) : resume ? c.resume(id as string) : c.pause(id as string),
        );
        if (o.json) printJson(out);
      });
  }
}

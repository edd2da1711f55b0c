/** `group …`: task groups and their parallel limits. */
import type { Command } from 'commander';
import { withDaemon } from '../client/connect.js';
import { table } from './format.js';
import { printJson } from './print-json.js';
import { positiveInt } from './values.js';

export function registerGroupCommands(program: Command): void {
  const group = program
    .command('group')
    .description('task groups: each runs at most N of its tasks at once, the rest queue in submission order')
    .addHelpText(
      'after',
      '\nThe default group holds tasks run without --group; its limit is maxParallel from the config until set here.\n' +
        'Examples:\n  nightshift group add builds --parallel 2\n  nightshift run --group builds -- make\n  nightshift group parallel builds 4',
    );
  group
    .command('list', { isDefault: true })
    .description('groups with their limit and how many tasks run and wait')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const groups = await withDaemon((c) => c.groups());
      if (o.json) return printJson(groups);
      const rows = groups.map((g) => [g.name, String(g.parallel), String(g.running), String(g.queued)]);
      process.stdout.write(`${table(['GROUP', 'PARALLEL', 'RUNNING', 'QUEUED'], rows)}\n`);
    });
  group
    .command('add')
    .description('create a group')
    .argument('<name>')
    .option('--parallel <n>', 'how many of its tasks may run at once', positiveInt('--parallel'), 1)
    .option('--json', 'print the group as JSON')
    .action(async (name: string, o: { parallel: number; json?: boolean }) => {
      const g = await withDaemon((c) => c.addGroup(name, o.parallel));
      if (o.json) printJson(g);
    });
  group
    .command('parallel')
    .description("change a group's limit (a higher one starts queued tasks at once)")
    .argument('<name>')
    .argument('<n>', 'how many of its tasks may run at once', positiveInt('N'))
    .option('--json', 'print the group as JSON')
    .action(async (name: string, n: number, o: { json?: boolean }) => {
      const g = await withDaemon((c) => c.setGroupParallel(name, n));
      if (o.json) printJson(g);
    });
  group
    .command('rm')
    .description('remove a group (refused while it has tasks queued or running)')
    .argument('<name>')
    .action(async (name: string) => {
      await withDaemon((c) => c.removeGroup(name));
    });
}

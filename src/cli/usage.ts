/** Usage errors: exit 2, and an unknown command names the commands there are, wherever it is typed. */
import type { Command, CommanderError } from 'commander';
import { EXIT } from './report.js';

/** A commander error (usage, help, version): 0 for help and version, else a usage error. */
export function commanderExitCode(err: CommanderError): number {
  return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
}

function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function unknownCommand(group: Command, name: string): never {
  const visible = group
    .createHelp()
    .visibleCommands(group)
    .map((c) => c.name())
    .filter((n) => n !== 'help');
  group.error(`error: unknown command '${name}' for '${fullName(group)}'; the commands are: ${visible.join(', ')}`, {
    exitCode: EXIT.usage,
    code: 'commander.unknownCommand',
  });
}

/**
 * Every command with subcommands answers a word that is none of them with "unknown command" and the
 * list: also one with a default subcommand (`memories bogus` is not "too many arguments for list")
 * and one with an action of its own (`dream bogus`).
 */
export function strictCommands(cmd: Command): void {
  for (const sub of cmd.commands) strictCommands(sub);
  if (cmd.commands.length === 0) return;
  const isSub = (word: string) => cmd.commands.some((c) => c.name() === word || c.aliases().includes(word));
  // No action, no default: commander emits this for a word that is no subcommand.
  cmd.on('command:*', (operands: string[]) => unknownCommand(cmd, operands[0] ?? ''));
  // A default subcommand gets the words that are no subcommand; its own arguments are none.
  cmd.hook('preSubcommand', (group) => {
    const word = group.args[0];
    if (word !== undefined && !word.startsWith('-') && !isSub(word)) unknownCommand(group, word);
  });
  // An action of its own and no arguments: a word is a mistyped subcommand, not an extra argument.
  if (cmd.registeredArguments.length === 0) {
    cmd.allowExcessArguments();
    cmd.hook('preAction', (group, action) => {
      const word = group.args[0];
      if (action === group && word !== undefined) unknownCommand(group, word);
    });
  }
}

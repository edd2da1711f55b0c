/** A task's argv as it will be exec'd, and the checks that let `run` say what is wrong before anything starts. */
import { accessSync, constants, statSync } from 'node:fs';
import { statPath } from '../sys/path-error.js';
import { delimiter, resolve } from 'node:path';
import { AppError } from '../errors.js';

/** A single argument with shell syntax in it ("make && make test") runs through sh -c. */
export function toArgv(command: string[]): string[] {
  if (command.length === 1 && /[\s|&;<>()$`\\"'*?[\]#~=%{}!]/.test(command[0] ?? '')) {
    return ['/bin/sh', '-c', command[0] ?? ''];
  }
  return command;
}

/** Checks what would otherwise only fail inside the wrapper, so `run` can say what is wrong. */
export function preflight(argv: string[], cwd: string, env: Record<string, string>): void {
  const dir = statPath(cwd);
  if (!dir.ok) throw new AppError('invalid_cwd', `working directory ${cwd} ${dir.why}`);
  if (!dir.stat.isDirectory()) throw new AppError('invalid_cwd', `working directory ${cwd} is not a directory`);
  const cmd = argv[0] ?? '';
  if (cmd === '') throw new AppError('command_not_found', 'command is empty');
  const candidates = cmd.includes('/')
    ? [resolve(cwd, cmd)]
    : (env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => resolve(cwd, d, cmd));
  for (const file of candidates) {
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return;
    } catch {
      // try the next PATH entry
    }
  }
  if (!cmd.includes('/')) throw new AppError('command_not_found', `command not found: ${cmd} (searched the task's PATH)`);
  const file = statPath(resolve(cwd, cmd));
  throw new AppError('command_not_found', file.ok || file.errno === 'ENOENT' ? `${cmd} is not an executable file` : `${cmd} ${file.why}`);
}

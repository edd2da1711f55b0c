/**
 * What npm adds to the environment of a script it runs (`npm start`, `npx`): its own variables
 * (npm_config_*, npm_lifecycle_*, npm_package_*, npm_execpath, npm_node_execpath, …, INIT_CWD, NODE,
 * COLOR) and, in front of PATH, `node_modules/.bin` of the package's directory and of each one above
 * it, then its node-gyp-bin. A daemon started that way would hand all of it to every scheduled task
 * and restart, and find the project's own devDependencies (`claude`) before the person's CLIs.
 *
 * EDITOR is left alone: npm sets it only from the person's EDITOR/VISUAL or its default, so it
 * cannot be told apart from their own.
 */
import { delimiter, join } from 'node:path';

/** Set by every npm script run and `npm exec`: the sign the environment came through npm. */
function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env['npm_lifecycle_event'] !== undefined || env['npm_execpath'] !== undefined || env['npm_command'] !== undefined;
}

const NPM_VARIABLE = /^npm_/i;
const NPM_SET = ['INIT_CWD', 'NODE', 'COLOR'];

/**
 * PATH without the entries npm put in front of it: the leading run of `…/node_modules/.bin`
 * directories (the package's, each one above it, npx's cache) and npm's node-gyp-bin. The same kind
 * of directory further on was the person's own choice, and stays.
 */
export function pathBeforeNpm(path: string): string {
  const parts = path.split(delimiter);
  const npms = (p: string) => p.endsWith(join('node_modules', '.bin')) || p.endsWith(join('run-script', 'lib', 'node-gyp-bin'));
  let i = 0;
  while (i < parts.length && npms(parts[i] ?? '')) i += 1;
  return parts.slice(i).join(delimiter);
}

/**
 * Removes what npm added from `env` (in place: the daemon's process.env, before anything starts);
 * returns the names removed and the PATH restored, or null when npm did not start the process.
 */
export function dropNpmEnvironment(env: NodeJS.ProcessEnv): { removed: string[]; path: string | undefined } | null {
  if (!startedByNpm(env)) return null;
  const path = env['PATH'] !== undefined ? pathBeforeNpm(env['PATH']) : undefined;
  const removed = Object.keys(env).filter((k) => NPM_VARIABLE.test(k) || NPM_SET.includes(k));
  for (const k of removed) delete env[k];
  if (path !== undefined) env['PATH'] = path;
  return { removed, path };
}

/**
 * What a task the daemon starts on its own (a schedule's firing, a restart given no environment)
 * starts from: the daemon's environment, which `dropNpmEnvironment` cleaned at start.
 */
export function daemonEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

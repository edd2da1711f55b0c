import { join, resolve } from 'node:path';
import { INSTALL, resolvePaths } from '../paths.js';

/** The hook entry's file name (hook-entry.ts), in nightshift's state directory: writable whoever installed the package. */
export const HOOK_ENTRY_NAME = 'nightshift-hook.sh';

/** How an agent starts this nightshift: absolute paths, so it works whatever PATH the agent's hooks get. */
export interface Invocation {
  node: string;
  cli: string;
  /** NIGHTSHIFT_HOME when one is set, so the agent reaches the same daemon. */
  env: Record<string, string>;
  /** The shell script the hooks run (hook-entry.ts). */
  hookEntry: string;
}

export function invocation(env: NodeJS.ProcessEnv = process.env): Invocation {
  return {
    node: process.execPath,
    cli: INSTALL.cli,
    env: env.NIGHTSHIFT_HOME ? { NIGHTSHIFT_HOME: resolve(env.NIGHTSHIFT_HOME) } : {},
    hookEntry: join(resolve(resolvePaths(env).stateDir), HOOK_ENTRY_NAME),
  };
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A shell command line running `nightshift ARGS...` (hooks are run by a shell). */
export function shellCommand(inv: Invocation, args: string[]): string {
  const env = Object.entries(inv.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, shellQuote(inv.node), shellQuote(inv.cli), ...args.map(shellQuote)].join(' ');
}

/** The command line of one hook: the hook entry under /bin/sh (so no exec bit is needed), with the env of `inv`. */
export function hookCommand(inv: Invocation, hook: string): string {
  const env = Object.entries(inv.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...env, '/bin/sh', shellQuote(inv.hookEntry), hook].join(' ');
}

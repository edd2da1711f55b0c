import { resolve } from 'node:path';
import { INSTALL } from '../paths.js';

/** How an agent starts this nightshift: absolute paths, so it works whatever PATH the agent's hooks get. */
export interface Invocation {
  node: string;
  cli: string;
  /** NIGHTSHIFT_HOME when one is set, so the agent reaches the same daemon. */
  env: Record<string, string>;
}

export function invocation(env: NodeJS.ProcessEnv = process.env): Invocation {
  return {
    node: process.execPath,
    cli: INSTALL.cli,
    env: env.NIGHTSHIFT_HOME ? { NIGHTSHIFT_HOME: resolve(env.NIGHTSHIFT_HOME) } : {},
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

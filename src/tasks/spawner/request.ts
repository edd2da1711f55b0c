/**
 * The `start` file a wrapper sources: `set --` with the output cap, the stdin mode, the cwd and the
 * argv (setsid first), and `e`, the function that exports the task's environment inside the
 * command's subshell. Every value is single-quoted, so nothing in it is ever expanded.
 */
import { join } from 'node:path';
import { writeTaskFile } from '../task-dir.js';
import { tools } from './tools.js';

export interface StartSpec {
  dir: string;
  command: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: boolean;
  capBytes: number;
}

/** A name dash's `export` takes; others (bash's exported functions, `a.b`) go through `env -i`. */
const EXPORTABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function startScript(spec: StartSpec): string {
  const capBlocks = Math.ceil(spec.capBytes / 512); // POSIX sh's ulimit -f counts 512-byte blocks
  const pairs = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  const plain = Object.keys(spec.env).every((k) => EXPORTABLE.test(k));
  const head = [spec.dir, String(capBlocks), spec.stdin ? 'fifo' : 'none', spec.cwd];
  const argv = plain ? [tools.setsid, ...spec.command] : [tools.env, '-i', '--', ...pairs, tools.setsid, ...spec.command];
  const exports = plain && pairs.length > 0 ? `export ${pairs.map(shellQuote).join(' ')}` : ':';
  return `set -- ${[...head, ...argv].map(shellQuote).join(' ')}\ne() { ${exports}; }\n`;
}

/** Writes the request beside the task's other files; on a full disk, an error naming the file. */
export function writeStart(spec: StartSpec): void {
  writeTaskFile(spec.dir, 'start', startScript(spec));
}

export const startFile = (dir: string): string => join(dir, 'start');

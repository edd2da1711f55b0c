/**
 * A PATH holding only the hook entry's chosen clients (perl, curl), each a wrapper that notes its
 * name in a log before it runs the real one, so a test can tell which client answered; and `cat`,
 * which the entry's no-daemon path uses. Everything else the entry runs has an absolute path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type HookClient = 'perl' | 'curl';

function which(name: string): string {
  return execFileSync('/bin/sh', ['-c', `command -v ${name}`])
    .toString()
    .trim();
}

export interface ClientPath {
  PATH: string;
  /** The clients run so far, in order. */
  used(): string[];
}

export function clientPath(dir: string, clients: HookClient[]): ClientPath {
  const bin = join(dir, 'bin');
  const log = join(dir, 'clients.log');
  mkdirSync(bin, { recursive: true });
  symlinkSync(which('cat'), join(bin, 'cat'));
  for (const c of clients) writeFileSync(join(bin, c), `#!/bin/sh\necho ${c} >>'${log}'\nexec '${which(c)}' "$@"\n`, { mode: 0o755 });
  return { PATH: bin, used: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

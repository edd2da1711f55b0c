import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { INSTALL, resolvePaths } from '../paths.js';

/** Starts `nightshift daemon` detached, logging to the daemon log; does not wait for it. */
export function spawnDaemon(): ChildProcess {
  const paths = resolvePaths();
  mkdirSync(dirname(paths.daemonLog), { recursive: true, mode: 0o700 });
  const log = openSync(paths.daemonLog, 'a', 0o600);
  const child = spawn(process.execPath, [INSTALL.cli, 'daemon'], { detached: true, stdio: ['ignore', log, log], env: process.env });
  closeSync(log);
  child.unref();
  return child;
}

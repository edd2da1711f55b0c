/**
 * Is an agent CLI there: found (config path, else on the daemon's PATH) and answering `--version`.
 * Only that: what the backends need of it (flags, login) is their own probe's to say.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { MODEL_CALL_MARKER } from '../backend.js';

const VERSION_TIMEOUT_MS = 5000;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The binary's absolute path: `configured` itself (absolute, or looked up like a bare name), else `name` on PATH. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv, configured?: string): string | undefined {
  const bin = configured ?? name;
  if (isAbsolute(bin) || bin.includes('/')) return executable(bin) ? bin : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, bin);
    if (executable(file)) return file;
  }
  return undefined;
}

/** The first line `--version` prints, or why there is none. */
export function readVersion(file: string, env: NodeJS.ProcessEnv): Promise<{ ok: true; version: string } | { ok: false; problem: string }> {
  return new Promise((resolve) => {
    // With the marker set: should the CLI start hooks of its own, nightshift's do nothing.
    execFile(file, ['--version'], { env: { ...env, [MODEL_CALL_MARKER]: '1' }, timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout) => {
      const version = stdout.trim().split('\n')[0]?.trim();
      if (err)
        resolve({
          ok: false,
          problem: err.killed ? `--version did not answer within ${VERSION_TIMEOUT_MS / 1000} s` : `--version failed (${err.message.split('\n')[0]})`,
        });
      else if (!version) resolve({ ok: false, problem: '--version printed nothing' });
      else resolve({ ok: true, version });
    });
  });
}

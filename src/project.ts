/**
 * Project identity: the git root of the session's cwd when there is one (worktrees of one
 * repository share their main worktree's root), otherwise the cwd as given. The home directory
 * itself is no project (isHomeDir).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

const cache = new Map<string, string>();

/**
 * `C:\Users\…`, `C:/…` or `\\server\share` on a platform that is not Windows: a transcript from a
 * Windows machine. Such a path can neither be resolved nor looked into here, and projects are
 * compared as strings, so it is kept exactly as given.
 */
export function isWindowsPath(path: string): boolean {
  return process.platform !== 'win32' && (/^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\]/.test(path));
}

/** A directory argument resolved against `base` (the current directory), unless it is a Windows path. */
export function resolveDir(dir: string, base = process.cwd()): string {
  return isWindowsPath(dir) ? dir : resolve(base, dir);
}

function gitEntry(dir: string): 'dir' | 'file' | undefined {
  try {
    const st = statSync(join(dir, '.git'));
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** A linked worktree's `.git` file points at `<common>/.git/worktrees/<name>`; its commondir names `<common>/.git`. */
function mainWorktreeRoot(worktree: string): string {
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(join(worktree, '.git'), 'utf8'))?.[1]?.trim();
    if (!pointer) return worktree;
    const gitdir = isAbsolute(pointer) ? pointer : resolve(worktree, pointer);
    const common = resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim());
    return basename(common) === '.git' ? dirname(common) : worktree;
  } catch {
    return worktree; // a submodule or an unusual layout: the worktree itself is the project
  }
}

export function projectKey(cwd: string): string {
  // Kept as given: projects are compared as strings, and resolving would glue it to our own cwd.
  if (isWindowsPath(cwd)) return cwd;
  const start = resolve(cwd);
  const hit = cache.get(start);
  if (hit !== undefined) return hit;
  let key = start;
  for (let dir = start; ; dir = dirname(dir)) {
    const entry = gitEntry(dir);
    if (entry === 'dir') {
      key = dir;
      break;
    }
    if (entry === 'file') {
      key = mainWorktreeRoot(dir);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  if (cache.size > 1000) cache.clear();
  cache.set(start, key);
  return key;
}

/** A Windows profile folder itself (`C:\Users\NAME`): a Windows transcript's home directory. */
const WINDOWS_HOME = /^[A-Za-z]:[\\/]+Users[\\/]+[^\\/]+[\\/]*$/i;

/**
 * The home directory is no project: a session started there is about anything, and what it says
 * must not become "this project's" for every later session started there. Only `$HOME` itself (as
 * the daemon's environment says; `os.homedir()` without it) counts, and whatever project key
 * resolves to it (a home kept in git); a repository below it is its own project.
 */
export function isHomeDir(key: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (isWindowsPath(key)) return WINDOWS_HOME.test(key);
  const home = env.HOME || homedir();
  if (!home) return false;
  const resolved = resolve(home);
  if (key === resolved) return true;
  try {
    return key === realpathSync(resolved) || realpathSync(key) === realpathSync(resolved);
  } catch {
    return false;
  }
}

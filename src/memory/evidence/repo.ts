/**
 * The repository as it is now, asked of git in batches: one `git ls-files` for what it holds, one
 * `git hash-object --stdin-paths` for the blob ids of any number of files, one `git rev-parse HEAD`.
 * Never a process per memory. A directory that is not a repository is walked (shallowly) and its
 * blob ids computed as git computes them, so the evidence means the same either way.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Directories a walk of a project that is not a git repository never enters. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'target', 'vendor', '.venv', 'venv', '__pycache__', 'coverage', '.next', '.cache']);
const WALK_DEPTH = 4;
const WALK_MAX = 20_000;
const GIT_TIMEOUT_MS = 20_000;

async function git(root: string, args: string[], input?: string): Promise<string | undefined> {
  // Loaded on first use: a daemon that never checks evidence never loads it.
  const { execa } = await import('execa');
  const r = await execa('git', args, {
    cwd: root,
    reject: false,
    timeout: GIT_TIMEOUT_MS,
    stripFinalNewline: false,
    ...(input !== undefined ? { input } : { stdin: 'ignore' }),
    env: { GIT_OPTIONAL_LOCKS: '0' },
  });
  return r.exitCode === 0 && typeof r.stdout === 'string' ? r.stdout : undefined;
}

/** The project's files, relative to its root: what git tracks or would (not ignored), or a shallow walk. */
export async function listFiles(root: string): Promise<{ git: boolean; files: string[] }> {
  const out = await git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (out !== undefined) return { git: true, files: [...new Set(out.split('\0').filter((f) => f !== ''))] };
  const files: string[] = [];
  const walk = (rel: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (files.length >= WALK_MAX) return;
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory() && depth < WALK_DEPTH && !SKIP.has(e.name)) walk(path, depth + 1);
      else if (e.isFile()) files.push(path);
    }
  };
  walk('', 0);
  return { git: false, files };
}

/** The commit checked out, when the project is a git repository with one. */
export async function headCommit(root: string): Promise<string | undefined> {
  return (await git(root, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim() || undefined;
}

export function isFile(root: string, rel: string): boolean {
  try {
    return statSync(join(root, rel)).isFile();
  } catch {
    return false;
  }
}

export function isDir(root: string, rel: string): boolean {
  try {
    return statSync(join(root, rel)).isDirectory();
  } catch {
    return false;
  }
}

/** git's id of a file's content ("blob N\0…", SHA-1), for when git cannot answer. */
function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The blob ids of the files that exist among `paths` (relative to `root`), from one git process
 * (with the repository's filters, as `git add` would store them); absent ones are left out.
 */
export async function blobsOf(root: string, paths: Iterable<string>): Promise<Map<string, string>> {
  const existing = [...new Set(paths)].filter((p) => !p.includes('\n') && isFile(root, p));
  const out = new Map<string, string>();
  if (existing.length === 0) return out;
  const ids = (await git(root, ['hash-object', '--stdin-paths'], `${existing.join('\n')}\n`))?.trim().split('\n');
  if (ids !== undefined && ids.length === existing.length) {
    existing.forEach((p, i) => out.set(p, ids[i] as string));
    return out;
  }
  for (const p of existing) {
    try {
      out.set(p, blobId(readFileSync(join(root, p))));
    } catch {
      // gone between the stat and the read: absent
    }
  }
  return out;
}

import { statSync, type Stats } from 'node:fs';

/** What a failed stat means, in words that name the errno when it is more than absence. */
const WHY: Record<string, string> = {
  ENOENT: 'does not exist',
  ELOOP: 'is a symlink loop (ELOOP)',
  EACCES: 'cannot be reached: permission denied (EACCES)',
  ENOTDIR: 'does not exist: a part of its path is not a directory (ENOTDIR)',
  ENAMETOOLONG: 'is too long a path (ENAMETOOLONG)',
};

export type Stat = { ok: true; stat: Stats } | { ok: false; errno: string; why: string };

/** stat(2) that says why it failed: a symlink loop is not "not found". */
export function statPath(path: string): Stat {
  try {
    return { ok: true, stat: statSync(path) };
  } catch (err) {
    const errno = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, errno, why: WHY[errno] ?? `cannot be read (${errno})` };
  }
}

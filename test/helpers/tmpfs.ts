import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/**
 * Mounts a tmpfs of `size` (e.g. "2m") on `dir`, so writes there really fail with ENOSPC once it is
 * full. Returns why it cannot (not root, no mount permission in this container), for `ctx.skip`.
 */
export function mountTmpfs(dir: string, size: string): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root (CI runs as root); ENOSPC is not tested here';
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    return `cannot mount a tmpfs here (${why}); ENOSPC is not tested`;
  }
}

/** Lazy unmount: a process that still has a file open there does not keep the test from ending. */
export function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch {
    // not mounted
  }
}

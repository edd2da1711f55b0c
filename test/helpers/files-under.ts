/** Every file below a directory, for tests that look for a value on every surface a home holds. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined) return [];
    return st.isDirectory() ? filesUnder(path) : st.isFile() ? [path] : [];
  });
}

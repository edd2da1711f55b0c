/** Where a program is: a path as given (it has a slash), else the first executable file of that name on PATH. */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function executableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function which(binary: string, path: string | undefined): string | undefined {
  if (binary.includes('/')) return executableFile(binary) ? binary : undefined;
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir && executableFile(join(dir, binary))) return join(dir, binary);
  }
  return undefined;
}

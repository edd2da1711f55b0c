import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Absolute paths of the programs the spawner and its wrappers run, so a task's own PATH cannot break them. */
export const tools = {
  setsid: findTool('setsid'),
  mkfifo: findTool('mkfifo'),
  env: findTool('env'),
};

function findTool(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // keep looking
    }
  }
  return name;
}

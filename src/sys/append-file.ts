/**
 * Appends whole lines to a log file, so that a failed append leaves no torn line behind: what a
 * write could not finish is cut off again, and a line torn by a crash is ended before the next one
 * (else the next line would be glued to it and lost with it at the next read).
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { diskFullError } from '../errors.js';

/** Appends `text` (whole lines, each ending in a newline); `sync`: on disk before it returns. Throws `disk_full` on a full disk. */
export function appendLines(path: string, text: string, opts: { sync: boolean }): void {
  const fd = openSync(path, 'a+', 0o600);
  let size = 0;
  try {
    size = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    const buf = Buffer.from(torn ? `\n${text}` : text);
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    if (opts.sync) fsyncSync(fd);
  } catch (err) {
    try {
      ftruncateSync(fd, size);
    } catch {
      // left torn: the next append ends the line first
    }
    throw diskFullError(err, path);
  } finally {
    closeSync(fd);
  }
}

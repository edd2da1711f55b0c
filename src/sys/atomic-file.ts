import { open, rename, unlink } from 'node:fs/promises';
import { diskFullError } from '../errors.js';

/**
 * Replaces `path` so that a reader, or the file after a crash, holds the old content or the new,
 * never half of either: write a temp file beside it, fsync, rename over. A write that fails (a full
 * disk: `disk_full`, naming `path`) leaves the old file as it was. (write-file-atomic does this too,
 * but installs process signal handlers; the daemon owns its signals.)
 */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fh = await open(tmp, 'w', mode);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw diskFullError(err, path);
  }
}

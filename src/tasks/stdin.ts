import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, isErrno } from '../errors.js';

/**
 * Writes to a task's stdin FIFO without ever blocking the daemon: O_NONBLOCK, and when the pipe is
 * full (the task is not reading) it retries briefly, then says so.
 */
export async function writeStdin(fifo: string, data: Buffer, patienceMs = 2000, startedAtMs = 0): Promise<void> {
  if (data.length === 0) return;
  let fh;
  const openDeadline = Date.now() + patienceMs;
  for (;;) {
    try {
      fh = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      break;
    } catch (err) {
      // ENOENT: the wrapper has not made the FIFO yet (a send right after run); ENXIO on a task
      // that only just started: it made the FIFO but has not opened it yet.
      const young = Date.now() - startedAtMs < patienceMs;
      if ((isErrno(err, 'ENOENT') || (isErrno(err, 'ENXIO') && young)) && Date.now() < openDeadline) {
        await sleep(10);
        continue;
      }
      if (isErrno(err, 'ENXIO') || isErrno(err, 'ENOENT')) {
        throw new AppError('stdin_closed', 'the task is no longer reading its stdin');
      }
      throw err;
    }
  }
  try {
    let written = 0;
    const deadline = Date.now() + patienceMs;
    while (written < data.length) {
      try {
        const { bytesWritten } = await fh.write(data, written, data.length - written);
        written += bytesWritten;
      } catch (err) {
        if (isErrno(err, 'EAGAIN') && Date.now() < deadline) {
          await sleep(20);
          continue;
        }
        if (isErrno(err, 'EAGAIN')) {
          throw new AppError('stdin_full', `the task is not reading its stdin: ${written} of ${data.length} bytes were delivered before its pipe filled`);
        }
        if (isErrno(err, 'EPIPE')) throw new AppError('stdin_closed', 'the task closed its stdin');
        throw err;
      }
    }
  } finally {
    await fh.close();
  }
}

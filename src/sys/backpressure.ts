import type { Writable } from 'node:stream';
import { AppError } from '../errors.js';

/**
 * Writes and resolves when the stream can take more: a slow reader slows the writer down instead
 * of making it buffer without bound. A stream that closes meanwhile resolves too (nothing to wait for).
 */
export function writeWithBackpressure(stream: Writable, data: Buffer | string): Promise<void> {
  // A rejection, never a throw: callers that only attach .catch() must not be thrown at.
  if (stream.destroyed) return Promise.reject(new AppError('conflict', 'client went away'));
  if (stream.write(data)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

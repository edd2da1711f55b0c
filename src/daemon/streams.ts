import type { ServerResponse } from 'node:http';
import { AppError } from '../errors.js';

/**
 * Long-lived responses (follow, events, wait). On shutdown they are ended so the server can close;
 * clients resume from the offset they reached.
 */
export class Streams {
  private readonly open = new Set<AbortController>();
  private readonly held = new Set<() => void>();

  async run(res: ServerResponse, body: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
    const ac = new AbortController();
    this.open.add(ac);
    const onClose = () => ac.abort();
    res.on('close', onClose);
    try {
      await body(ac.signal);
    } finally {
      res.off('close', onClose);
      this.open.delete(ac);
      if (!res.writableEnded) res.end();
    }
  }

  /** A long poll: answered by `p`, or rejected with 503 when the daemon shuts down first. */
  hold<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = () => reject(new AppError('daemon_unavailable', 'the daemon is shutting down; ask again in a moment'));
      this.held.add(cancel);
      p.then(resolve, reject).finally(() => this.held.delete(cancel));
    });
  }

  closeAll(): void {
    for (const ac of this.open) ac.abort();
    for (const cancel of this.held) cancel();
  }
}

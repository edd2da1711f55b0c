/**
 * Ingests run one at a time (they share the store, and the dream waits for none to be running);
 * a second request for a transcript already waiting shares that run instead of queueing another
 * (a re-ingest shares only with a re-ingest: it reads more than an incremental one).
 */
import type { IngestRequest, IngestSummary } from '../../api/memory.js';

export class IngestQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<string, Promise<IngestSummary>>();
  private running = 0;
  private queued = 0;

  constructor(private readonly run: (req: IngestRequest) => Promise<IngestSummary>) {}

  /** True while an ingest runs or waits (the dream's gate). */
  get busy(): boolean {
    return this.running + this.queued > 0;
  }

  enqueue(req: IngestRequest): Promise<IngestSummary> {
    const key = `${req.reingest === true ? 'reingest' : 'ingest'}:${req.path}`;
    const same = this.waiting.get(key);
    if (same) return same;
    this.queued++;
    const job = this.tail.then(async () => {
      this.waiting.delete(key);
      this.queued--;
      this.running++;
      try {
        return await this.run(req);
      } finally {
        this.running--;
      }
    });
    this.waiting.set(key, job);
    this.tail = job.catch(() => undefined);
    return job;
  }

  /** Resolves once everything queued so far has finished. */
  async drain(): Promise<void> {
    await this.tail;
  }
}

/**
 * A session's statements ranked on a thread of their own. Ranking is the longest stretch of an
 * ingest that cannot give way to the daemon's other work (a large session's takes seconds): on the
 * daemon's thread, hooks, task starts and every request wait behind it. The thread starts as an
 * ingest starts reading (`warm`), stays while sessions come, and ends after IDLE_MS without one.
 * Where its built entry is missing (the sources run as they are, in tests) or the thread cannot
 * run, the ranking is done here instead: the same pure function, only not beside.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../log.js';
import type { Ranked } from '../rank/score.js';
import { offlineOf, rankSession } from './offline.js';
import type { RankJob, RankReply, Warm } from './rank-worker.js';
import type { ExtractMessage, ExtractResult } from './types.js';

/** A session's statements ranked: the offline extractor's answer, and the whole list when asked. */
export interface Ranking {
  offline: ExtractResult;
  ranked?: Ranked[];
}

/** Ranks a session's statements; `full`: with the whole ranked list (a model extractor chooses from it). */
export type RankMessages = (messages: ExtractMessage[], maxMemories: number, full?: boolean) => Promise<Ranking>;

export const rankHere: RankMessages = async (messages, maxMemories, full = false) => {
  const ranked = rankSession({ messages });
  return { offline: offlineOf(ranked, maxMemories), ...(full && { ranked }) };
};

const IDLE_MS = 30_000;
/** Beside this module in dist/ (the build's `rank-worker` entry). */
const ENTRY = new URL('./rank-worker.mjs', import.meta.url);

interface Pending {
  job: RankJob;
  resolve: (r: Ranking) => void;
  reject: (err: Error) => void;
}

export class RankThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private idle: NodeJS.Timeout | undefined;
  private readonly usable: boolean;

  constructor(
    private readonly log: Logger,
    private readonly entry: URL = ENTRY,
  ) {
    this.usable = existsSync(fileURLToPath(entry));
  }

  rank: RankMessages = (messages, maxMemories, full = false) => {
    const worker = this.usable ? this.start() : undefined;
    if (worker === undefined) return rankHere(messages, maxMemories, full);
    clearTimeout(this.idle);
    const job: RankJob = { id: this.next++, messages, maxMemories, full };
    const answer = new Promise<Ranking>((resolve, reject) => this.pending.set(job.id, { job, resolve, reject }));
    worker.ref();
    worker.postMessage(job);
    return answer;
  };

  /**
   * Starts the thread and has it load what ranking reads, so that it is ready by the time the
   * session being read comes to be ranked (loading takes ~0.3 s, on the other core).
   */
  warm(): void {
    const worker = this.usable ? this.start() : undefined;
    if (worker === undefined) return;
    const warm: Warm = { warm: true };
    worker.postMessage(warm);
    this.settled();
  }

  /** Ends the thread; sessions it was ranking are ranked here. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const w = this.worker;
    if (w !== undefined) await w.terminate();
  }

  private start(): Worker | undefined {
    if (this.worker !== undefined) return this.worker;
    try {
      const w = new Worker(this.entry);
      w.on('message', (reply: RankReply) => this.answer(reply));
      w.on('error', (err) => this.lost(w, err.message));
      w.on('exit', (code) => this.lost(w, `it exited (code ${code})`));
      this.worker = w;
      return w;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'the ranking thread could not start; ranking on the main thread');
      return undefined;
    }
  }

  private answer(reply: RankReply): void {
    const p = this.pending.get(reply.id);
    if (p === undefined) return;
    this.pending.delete(reply.id);
    // A programming error in the ranking is one here too: it throws as it would have.
    if ('offline' in reply) p.resolve({ offline: reply.offline, ...(reply.ranked !== undefined && { ranked: reply.ranked }) });
    else p.reject(new Error(`ranking failed: ${reply.error}`));
    this.settled();
  }

  /** The thread died or was ended: what it held is ranked here, and the next session starts a new one. */
  private lost(w: Worker, why: string): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    if (this.pending.size > 0) this.log.warn({ sessions: this.pending.size, why }, 'the ranking thread stopped; ranking on the main thread');
    for (const { job, resolve, reject } of this.pending.values()) rankHere(job.messages, job.maxMemories, job.full).then(resolve, reject);
    this.pending.clear();
  }

  private settled(): void {
    if (this.pending.size > 0 || this.worker === undefined) return;
    this.worker.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.close(), IDLE_MS).unref();
  }
}

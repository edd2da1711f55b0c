/**
 * The ranking thread's entry (built as dist/rank-worker.mjs, see rank-thread.ts): ranks the
 * statements of the sessions it is sent, one after another, with the same weights as the daemon
 * (the environment it was started with names them).
 */
import { parentPort } from 'node:worker_threads';
import type { Ranked } from '../rank/score.js';
import { offlineOf, rankSession } from './offline.js';
import type { ExtractMessage, ExtractResult } from './types.js';

export interface RankJob {
  id: number;
  messages: ExtractMessage[];
  maxMemories: number;
  /** The whole ranked list too (a model extractor chooses from it), not only the offline answer. */
  full: boolean;
}

/** Loads what ranking reads (the language model, the weights) before the first session comes. */
export interface Warm {
  warm: true;
}

export type RankReply = { id: number; offline: ExtractResult; ranked?: Ranked[] } | { id: number; error: string };

const WARM_UP: ExtractMessage[] = [{ id: 'warm-up', role: 'user', kind: 'text', origin: 'typed', text: 'Always run the tests before you commit.' }];

parentPort?.on('message', (job: RankJob | Warm) => {
  if ('warm' in job) {
    rankSession({ messages: WARM_UP });
    return;
  }
  let reply: RankReply;
  try {
    const ranked = rankSession({ messages: job.messages });
    reply = { id: job.id, offline: offlineOf(ranked, job.maxMemories), ...(job.full && { ranked }) };
  } catch (err) {
    reply = { id: job.id, error: (err as Error).stack ?? String(err) };
  }
  parentPort?.postMessage(reply);
});

/**
 * The dashboard's memory list at 10,000 memories: `GET /v1/memories` with a search query and a page
 * of 50 (with the total), next to recall with the same query over the same store (the same BM25
 * index, the peer it must stay near) and the unfiltered first page, interleaved, medians.
 */
import { performance } from 'node:perf_hooks';
import { tempDir } from './lib/cleanup.js';
import { withDaemon } from './lib/daemon.js';
import { recallQuery, rng } from './lib/memgen.js';
import { fmt, median } from './lib/stats.js';
import { atMost, info, type Bench, type Figure } from './lib/types.js';
import { memoryLines, seedStore } from './recall.js';

const CONFIG = { transcripts: { watch: false }, memory: { extractor: 'heuristic' } };

export const memoryBrowseBench: Bench = {
  name: 'memory-browse',
  title: 'Memory list with a query and a page of 50 at 10,000 memories, next to recall with the same query',
  budgetSeconds: 180,
  async run(o, say) {
    const size = o.quick ? 2_000 : 10_000;
    const samples = o.quick ? 40 : 200;
    const work = tempDir('ns-bench-browse-');
    const project = work.dir;
    try {
      const lines = memoryLines(rng(20261201), size, project, Date.now());
      return await withDaemon(
        CONFIG,
        async (d) => {
          const r = rng(7);
          const time = async (f: () => Promise<unknown>) => {
            const t0 = performance.now();
            await f();
            return performance.now() - t0;
          };
          const list: number[] = [];
          const recall: number[] = [];
          const page: number[] = [];
          let totals = 0;
          for (let i = 0; i < samples + 20; i++) {
            const q = recallQuery(r);
            const a = await time(async () => {
              totals += (await d.client.call('listMemories', { query: { project, q, limit: 50 } })).total ?? 0;
            });
            const b = await time(() => d.client.recall({ project, query: q, episodes: false }));
            const c = await time(() => d.client.call('listMemories', { query: { project, limit: 50 } }));
            if (i < 20) continue; // warm-up
            list.push(a);
            recall.push(b);
            page.push(c);
          }
          const [l, rc, p] = [median(list), median(recall), median(page)];
          say(
            `${size} memories: list q + limit 50 ${fmt(l)} ms (mean total ${fmt(totals / (samples + 20))} matches), recall with the query ${fmt(rc)} ms, first page unfiltered ${fmt(p)} ms`,
          );
          const figures: Figure[] = [
            atMost(`${size / 1000}k: list with q, limit 50 (median round trip)`, l, 'ms', 50),
            atMost(`${size / 1000}k: list with q ÷ recall with the same query`, l / rc, '×', 2),
            info(`${size / 1000}k: recall with the same query (median)`, rc, 'ms'),
            info(`${size / 1000}k: list, first page of 50, no query (median)`, p, 'ms'),
          ];
          return figures;
        },
        { prepare: (paths) => seedStore(paths, lines, project) },
      );
    } finally {
      work.remove();
    }
  },
};

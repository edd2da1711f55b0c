/**
 * The fitted ranker, as data: weights.json, written by `npm run fit:ranker` (scripts/fit-ranker.ts)
 * with its out-of-fold report. Checked once when loaded: a weights file fitted for another feature
 * list is a build mistake, and the daemon refuses it rather than rank with misaligned weights.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import data from './weights.json' with { type: 'json' };
import { FEATURES } from './features.js';

const Model = z.object({ bias: z.number(), weights: z.array(z.number()), mean: z.array(z.number()), scale: z.array(z.number()) });
const Tally = z.object({ wanted: z.number(), wantedTotal: z.number(), junk: z.number(), onTarget: z.number(), medianChars: z.number() });

export const Weights = z.object({
  version: z.literal(1),
  features: z.array(z.string()),
  wanted: Model,
  junk: Model,
  /** score = P(wanted) − junkWeight × P(junk) */
  junkWeight: z.number(),
  /** Below this score a candidate is neither stored nor recalled. */
  floor: z.number(),
  /** The most memories one session leaves behind (its best, by score). */
  perSession: z.number().int().positive(),
  /** A session's best this many are kept below the floor. */
  sessionBest: z.number().int().nonnegative(),
  /** A session with at most this many statements worth a line keeps them all. */
  shortSession: z.number().int().nonnegative(),
  report: z.object({
    corpus: z.object({ files: z.number(), groups: z.number(), candidates: z.number() }),
    folds: z.number(),
    lambda: z.number(),
    /** Per corpus fitted on. */
    corpora: z.array(
      z.object({
        name: z.string(),
        /** Every group scored by models fitted on all the others (what the operating point was chosen on). */
        leaveOneGroupOut: Tally,
        /** The scorer's folds: one per fold, then all folds together. */
        outOfFold: z.array(Tally),
        /** Scored by the final fit, which saw every group: beside the out-of-fold figures, never instead of them. */
        inSample: Tally,
      }),
    ),
  }),
});
export type Weights = z.infer<typeof Weights>;

let loaded: Weights | undefined;

/**
 * The weights in force: the built-in fit, or a fit written elsewhere by `npm run fit:ranker -- --out
 * FILE` named by NIGHTSHIFT_RANKER_WEIGHTS (a refit with your own rejections, or a fit that left some
 * sessions out to score them out of fold), checked the same way.
 */
export function rankerWeights(): Weights {
  if (loaded !== undefined) return loaded;
  const file = process.env.NIGHTSHIFT_RANKER_WEIGHTS;
  const w = Weights.parse(file ? JSON.parse(readFileSync(file, 'utf8')) : data);
  const want = FEATURES.join(',');
  if (w.features.join(',') !== want) throw new Error(`rank/weights.json was fitted for other features; run npm run fit:ranker (want ${want})`);
  for (const m of [w.wanted, w.junk])
    if (m.weights.length !== FEATURES.length || m.mean.length !== FEATURES.length || m.scale.length !== FEATURES.length)
      throw new Error('rank/weights.json: a model has the wrong number of weights; run npm run fit:ranker');
  loaded = w;
  return w;
}

/**
 * How a recall block spends its budget (tokens, ~4 characters each): a little framing, at most a
 * fifth for the digests of recent sessions, at most a quarter for the project's current state, the
 * rest for memories.
 */

/** The default recall budget (config `memory.recallBudget`). */
export const DEFAULT_BUDGET = 2000;
/** Headings and the closing note around the lines. */
export const FRAME_TOKENS = 40;
/** Each line's bullet, quotes and date. */
export const ITEM_FRAME_TOKENS = 4;
/** The share recent sessions' digests may take. */
export const DIGEST_SHARE = 0.2;
/** The share the project's current state (the agent's record: built, open, found) may take. */
export const STATE_SHARE = 0.25;
/** The state section's own heading. */
export const STATE_HEADING_TOKENS = 8;
/** What memories get of the default budget when digests and the state take their whole shares (the fit scores with it). */
export const MEMORY_TOKENS = Math.floor(DEFAULT_BUDGET * (1 - DIGEST_SHARE - STATE_SHARE)) - FRAME_TOKENS;

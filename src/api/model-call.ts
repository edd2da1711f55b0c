/**
 * Set in the environment of every agent CLI nightshift starts for a model call. Every nightshift
 * hook exits 0 at once when it sees it, so an extraction can never set off another session-end
 * ingest. Here, zod-free, because both sides need it: the backends set it, the hooks (on the CLI's
 * fast path) read it.
 */
export const MODEL_CALL_MARKER = 'NIGHTSHIFT_MODEL_CALL';

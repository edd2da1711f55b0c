/** Public surface of the state records: what a session built and left open, per project. */
export { StateBuilder } from './build.js';
export { archivedLines, compactState, KEEP_SESSIONS } from './compact.js';
export { stateItems, type StateBlock } from './recall.js';
export { resolveState, settles, type StateLine } from './resolve.js';
export { emptySessionState, type ProjectState, type SessionState } from './schema.js';
export { StateStore } from './store.js';

/**
 * memory/'s one public surface: the rest of src/ imports these names and no module behind them
 * (`memory-has-one-door` in .dependency-cruiser.cjs), so the pipeline inside can be rearranged
 * without touching its users.
 */

// The service and what the daemon starts beside it.
export { MemoryService } from './service.js';
export { budgetedExtractor } from './extract/budgeted.js';
export { chooseExtractor } from './extract/choose.js';
export { RankThread } from './extract/rank-thread.js';
export { PromptRecall } from './recall/prompt-recall.js';
export { sessionKey } from './sessions.js';
export { drainSpool } from './ingest/spool.js';
export { defaultTranscriptDirs, startTranscriptWatcher } from './ingest/watcher.js';
export { attachTeams } from './store/team-watch.js';

// The store as the dream reads and changes it: identity, activity, decay.
export type { MemoryStore } from './store/store.js';
export type { Activity } from './store/activity.js';
export { clocksOf, decay, editedSince, isActive, namespaceKey, namespaceOf, PRUNE_FACTOR, rankOf, type Namespace } from './store/model.js';
export { changeable } from './store/merge.js';
export { numberChanged, slotKey, slotOf } from './store/slots.js';
export { applyDecisions, decideAll, noDecisions, type Decisions } from './evidence/tie.js';
export type { Episode, EpisodeStore } from './episodic/episodes.js';

// The language analysis the dream compares wordings with.
export {
  CONDITIONS,
  DEICTIC,
  DEONTIC,
  FIRST_PLURAL,
  FIRST_SINGULAR,
  NEGATORS,
  RELATIVE_TIME,
  SECOND,
  STANDING,
  standingIn,
  TROUBLE,
  UNIVERSAL,
} from './nlp/lexicon.js';
export { jaccard, negated, stem, terms, words } from './nlp/text.js';
export { TOOL_CATEGORY } from './nlp/tool-lexicon.js';

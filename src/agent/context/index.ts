/**
 * Context management for agent loops on the Anthropic Messages API: the public API.
 *
 * A `ContextManager` owns the conversation history of one agent task. The loop adds what happens
 * (user text, responses with their usage, tool results) and asks for each request; the manager keeps
 * every request inside the window (estimate + max_tokens ≤ context window, checked before sending)
 * with graduated tiers: large tool output saved to disk at execution → budget → snip → microcompact
 * → prune → compaction (summary + newest turns) → eviction by policy. Overflows the estimate missed
 * get one reactive compaction and a retry, then a clean give-up with the checkpoint saved. The
 * manager never calls the API itself: the loop passes `summarize` (and optionally `countTokens`).
 *
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { ContextManager, NOTES_TOOL, NOTES_TOOL_NAME, resolveWindow } from './agent/context/index.js';
 *
 * const client = new Anthropic();
 * const model = 'claude-sonnet-4-5';
 * const window = resolveWindow(model, { maxOutputTokens: 16_000 });
 * if (!window.ok) throw new Error(window.error.message);
 * const ctx = new ContextManager({
 *   window: window.value,
 *   taskDir,                                   // tool-results/ and context/checkpoint.{json,md} go here
 *   onEvent: (e) => log.info(e, `context ${e.type}`),
 *   summarize: async (r) => {
 *     const m = await client.messages.create({ model, system: r.system, messages: r.messages, max_tokens: r.maxTokens });
 *     return { text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), usage: m.usage };
 *   },
 *   countTokens: async (r) => (await client.messages.countTokens({ model, ...r })).input_tokens,
 *   extractMemories: (messages) => memory.ingestMessages(messages),
 * });
 * const tools = [...myTools, NOTES_TOOL];
 * ctx.addUser(taskText);                          // also the task statement kept verbatim
 * for (;;) {
 *   const req = await ctx.prepareRequest({ system, tools });
 *   if (!req.ok) return endTask(req.error);      // context_full: the checkpoint is saved
 *   let msg;
 *   try {
 *     msg = await client.messages.stream({ model, system: req.value.system, tools: req.value.tools,
 *       messages: req.value.messages, max_tokens: req.value.maxTokens }).finalMessage();
 *   } catch (err) {
 *     const d = await ctx.onOverflow(err);
 *     if (d.action === 'retry') continue;        // compacted: prepareRequest again, same iteration
 *     if (d.action === 'give_up') return endTask(d.error, d.checkpoint);
 *     throw err;                                 // not an overflow: the loop's own error handling
 *   }
 *   if (msg.stop_reason === 'model_context_window_exceeded') {   // do not add the cut-off response
 *     const d = await ctx.onOverflow(msg);
 *     if (d.action === 'retry') continue;
 *     return endTask(d.action === 'give_up' ? d.error : undefined);
 *   }
 *   ctx.addAssistant(msg.content, msg.usage);
 *   transcript.append(msg);                        // the loop keeps the transcript, for resume
 *   const uses = msg.content.filter((b) => b.type === 'tool_use');
 *   if (uses.length === 0) break;
 *   const results = await Promise.all(uses.map(async (u) => u.name === NOTES_TOOL_NAME
 *     ? { tool_use_id: u.id, ...ctx.notes.handle(u.input) }
 *     : { tool_use_id: u.id, content: await runTool(u) }));
 *   await ctx.addToolResults(results);             // large outputs saved, preview kept
 * }
 * await ctx.settle();                              // memory extraction still running
 * ```
 *
 * `nightshift compact ID` → `ctx.requestCompaction()`; `nightshift show ID --json` → `ctx.health()`;
 * `--resume ID` → `await resumeTask(transcript, { ...options, taskDir })` (checkpoint + transcript;
 * `ContextManager.resume(checkpoint, transcript, options)` underneath), where `transcript` is every
 * message given to addUser / addAssistant / addToolResults, in order, as given (`ctx.messageCount`
 * says how many the manager has had). Tiers are configured with `tiers: { prune: { protectTokens:
 * 30_000 }, snip: { classify } , … }`; what to clear first with `policy: hybridPolicy()`.
 * Thresholds are fractions of the input budget (context window − max output tokens).
 */
export { ContextManager } from './manager.js';
export { resumeTask } from './open.js';
export type { CheckpointOutcome, ContextManagerOptions, OverflowDecision, PrepareInput, PreparedRequest, ToolResultInput } from './options.js';
export type {
  ComponentName,
  CompactionTrigger,
  ContextError,
  ContextErrorCode,
  ContextEvent,
  Result,
  Summarizer,
  SummarizeRequest,
  SummarizeResponse,
  SystemPrompt,
  TierName,
  TierReport,
  TokenCounter,
  UsageLike,
  Zone,
} from './types.js';

// Window and accounting
export { DEFAULT_MAX_OUTPUT_TOKENS, FALLBACK_LIMITS, MODEL_LIMITS, checkWindow, inputBudget, modelLimits, resolveWindow } from './model-window.js';
export type { ModelLimits, ResolvedWindow, WindowOverrides, WindowSpec } from './model-window.js';
export { IMAGE_TOKENS, TokenAccount, messageTokens, messagesTokens, roughRequestTokens, usageInputTokens } from './token-count.js';
export { DEFAULT_ZONES, PressureMonitor, zoneOf, type ZoneThresholds } from './pressure.js';
export { COMPONENT_NAMES, DEFAULT_COMPONENT_LIMITS, measureComponents } from './components.js';
export type { ComponentLimit, ComponentLimits, ComponentStatus, ComponentUsage } from './components.js';
export type { HealthReport } from './health-report.js';

// Configuration and the tiers, usable on their own
export { DEFAULT_COMPACTION, resolveConfig, type CompactionConfig, type ContextConfig, type ContextConfigInput, type EvictConfig } from './config.js';
export { DEFAULT_PERSIST, defaultReadHint, persistLargeOutput, persistResult, type PersistConfig, type PersistOutcome, type PersistTarget } from './persist.js';
export { DEFAULT_BUDGET, applyBudget, budgetCap, type BudgetConfig, type BudgetStep } from './budget.js';
export { DEFAULT_SNIP, applySnip, defaultClassify, type SnipConfig, type ToolClass, type ToolClassifier } from './snip.js';
export { DEFAULT_MICROCOMPACT, applyMicrocompact, type MicrocompactConfig } from './microcompact.js';
export { DEFAULT_PRUNE, applyPrune, type PruneConfig } from './prune.js';
export { PLACEHOLDER_PREFIX, currentTurnStart, headTail, toolResults, type ToolCall, type ToolResultRef } from './blocks.js';

// Compaction, invariants, eviction
export {
  COMPACT_PROMPT,
  COMPACT_SYSTEM,
  buildSummarizeRequest,
  findCut,
  parseSummary,
  summaryMessageText,
  type StructuredSummary,
} from './compaction-summary.js';
export { CircuitBreaker } from './breaker.js';
export { INTERRUPTED_RESULT, checkInvariants, repairInvariants, type Violation, type ViolationKind } from './invariants.js';
export { collectBlocks, evict, hybridPolicy, typeAgePolicy, type BlockKind, type ContextBlock, type EvictionPolicy } from './policy.js';
export { overflowOf, type Overflow } from './overflow.js';

// Notes and checkpoints
export { NOTES_TOOL, NOTES_TOOL_NAME, NOTE_SECTIONS, NotesStore, type NoteSection, type NotesState, type NotesToolResult } from './notes.js';
export {
  CHECKPOINT_FORMAT,
  checkpointPaths,
  loadCheckpoint,
  parseCheckpoint,
  renderMarkdown,
  saveCheckpoint,
  type Checkpoint,
  type SavedCheckpoint,
} from './checkpoint.js';

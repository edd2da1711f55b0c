/** The normalised shape every transcript format is parsed into. */

export type TranscriptFormat = 'claude-code' | 'codex' | 'messages';

export type TranscriptRole = 'user' | 'assistant' | 'system';

/**
 * `boundary` marks a compaction point (Claude Code `compact_boundary`): everything before it was
 * summarised into the next `summary` message with `compactSummary`.
 */
export type TranscriptKind = 'text' | 'tool_use' | 'tool_result' | 'thinking' | 'summary' | 'boundary';

/**
 * Who put a message in the conversation, so only what the person said counts as theirs:
 * - `typed`: the person typed it (as the turn's prompt);
 * - `queued`: the person typed it while the agent was busy (Claude Code's queue);
 * - `answer`: the person's answers to the agent's questions (AskUserQuestion), see `answers`;
 * - `plan`: a plan the agent proposed for approval, see `plan` for the person's verdict;
 * - `feedback`: the person's reason for rejecting a tool call or a plan;
 * - `summary`: a compaction summary (kind `summary`, `compactSummary`);
 * - `instructions`: AGENTS.md / CLAUDE.md content, injected or written at the person's request;
 * - `agent`: a prompt one agent wrote to a subagent (never the person's instruction);
 * - `command`: slash commands, `!` shell input and local command output;
 * - `interrupt`: the person stopped the agent ("[Request interrupted by user]", Codex turn_aborted);
 * - `system`: hook output, reminders, environment and other injected context, titles;
 * - `assistant`: the agent's own text, thinking and tool calls; `tool`: tool results.
 */
export type MessageOrigin =
  'typed' | 'queued' | 'answer' | 'plan' | 'feedback' | 'summary' | 'instructions' | 'agent' | 'command' | 'interrupt' | 'system' | 'assistant' | 'tool';

/** One question the agent asked and what the person chose or wrote. */
export interface Answer {
  question: string;
  answer: string;
  /** The choices offered (labels), when the question had them. */
  options?: string[];
}

export type PlanVerdict = 'approved' | 'rejected' | 'pending';

/** One item of the agent's task list (Claude Code TodoWrite, Codex update_plan). */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface TranscriptMessage {
  /** The line's uuid or message id; `@<byte offset>` (JSONL) or `#<index>` (JSON array) when missing. A line with several blocks gives `<id>:<block index>` to blocks after the first. */
  id: string;
  /** Tool results are `user`, as in the Anthropic API, whatever role the source gave them. */
  role: TranscriptRole;
  kind: TranscriptKind;
  origin: MessageOrigin;
  /** tool_use: `name(arguments)` clipped to 200 chars; tool_result: the output (evidence only), clipped to 32 KiB. */
  text: string;
  toolName?: string;
  /** Links a tool_use to its tool_result (Claude `tool_use_id`, Codex/OpenAI `call_id`). */
  toolUseId?: string;
  /** The tool reported failure (Claude `is_error`). */
  isError?: boolean;
  /**
   * tool_result (and the `feedback` that stands for one): the call was declined — the person rejected
   * or cancelled it at the prompt or stopped it while it ran, or a permission rule denied it — so it
   * never ran to an end (`isError` is set too, `exitCode` never).
   */
  rejected?: boolean;
  /** As written in the transcript, never the parse clock. */
  timestamp?: string;
  sessionId?: string;
  cwd?: string;
  /** Claude Code subagent (Task tool) line. */
  sidechain?: boolean;
  /** Injected context the user did not type (Claude `isMeta`, Codex environment/instructions blocks). */
  meta?: boolean;
  /** The summary a compaction wrote in place of the earlier conversation. */
  compactSummary?: boolean;
  /** Who said it, when the transcript names the speaker (chat `name`). */
  speaker?: string;
  /** Origin `answer`: the question/answer pairs; `text` has them one per line as `question → answer`. */
  answers?: Answer[];
  /** Origin `plan`: whether the person approved it (`pending`: no verdict in the transcript). */
  plan?: PlanVerdict;
  /** The subagent (Claude Code `agentId`) whose file this message came from. */
  agentId?: string;
  /** A shell tool's command line: on its tool_use, and on its tool_result when the call is known. */
  command?: string;
  /** tool_use: what the call does, for a person's verdict on it (see `callGist`). */
  gist?: string;
  /** tool_use: the files the call writes (Edit, Write, MultiEdit, NotebookEdit, apply_patch). */
  paths?: string[];
  /** tool_use: the placeholder lines (TODO, FIXME, …) the write takes out, when it says what it replaces. */
  filled?: string[];
  /** tool_result of a shell command: its exit status, when the transcript tells. */
  exitCode?: number;
  /** tool_use of a task-list tool: the whole list it sets (each call replaces the one before). */
  todos?: TodoItem[];
}

export interface SessionInfo {
  sessionId?: string;
  cwd?: string;
  /** A Claude Code subagent or compaction sidechain file: its agent id (the session is the parent's). */
  agentId?: string;
}

export interface TranscriptStats extends SessionInfo {
  /** Lines that were not JSON objects (or longer than the line cap); skipped, never fatal. */
  malformedLines: number;
  /** Complete lines consumed, blank ones included (elements, for a JSON array), and an over-long unfinished last line. */
  linesRead: number;
  /** Byte offset just past the last complete line processed: pass it back as `offset` to resume. */
  endOffset: number;
}

export interface TranscriptParse {
  format: TranscriptFormat;
  /** Single use. Messages are produced as lines are read, so memory stays bounded. */
  messages: AsyncIterable<TranscriptMessage>;
  /** Live counters; final once `messages` is exhausted. */
  stats(): TranscriptStats;
}

export interface ParseResult extends TranscriptStats {
  format: TranscriptFormat;
  messages: TranscriptMessage[];
}

/** One format's reader of parsed JSON lines. Stateful: it remembers session info and tool names. */
export interface LineParser {
  /** Messages of one JSON object; unknown shapes give none. `fallbackId` names id-less lines. */
  parse(line: Record<string, unknown>, fallbackId: string): TranscriptMessage[];
  /** Messages held back until the end of the input (a verdict or a duplicate that never came). */
  finish?(): TranscriptMessage[];
  /** First session id and cwd seen. */
  readonly session: SessionInfo;
}

/**
 * A message as extraction sees it: tool results already clipped (evidence, never memories).
 * `origin` says who put it there (see MessageOrigin): only `typed`, `queued`, `answer`,
 * `feedback`, an approved `plan`, `summary` and `instructions` carry what the person stated.
 */
export type ExtractMessage = Pick<
  TranscriptMessage,
  | 'id'
  | 'role'
  | 'kind'
  | 'text'
  | 'toolName'
  | 'isError'
  | 'timestamp'
  | 'meta'
  | 'sidechain'
  | 'compactSummary'
  | 'speaker'
  | 'answers'
  | 'plan'
  | 'agentId'
  | 'command'
  | 'exitCode'
  | 'paths'
  | 'gist'
> & {
  /** Always set by the parsers; a caller that builds messages by hand may leave it to be inferred. */
  origin?: TranscriptMessage['origin'];
};

/** The normalised shape every transcript format is parsed into. */

export type TranscriptFormat = 'claude-code' | 'codex' | 'messages';

export type TranscriptRole = 'user' | 'assistant' | 'system';

/**
 * `boundary` marks a compaction point (Claude Code `compact_boundary`): everything before it was
 * summarised into the next `summary` message with `compactSummary`.
 */
export type TranscriptKind = 'text' | 'tool_use' | 'tool_result' | 'thinking' | 'summary' | 'boundary';

export interface TranscriptMessage {
  /** The line's uuid or message id; `@<byte offset>` (JSONL) or `#<index>` (JSON array) when missing. A line with several blocks gives `<id>:<block index>` to blocks after the first. */
  id: string;
  /** Tool results are `user`, as in the Anthropic API, whatever role the source gave them. */
  role: TranscriptRole;
  kind: TranscriptKind;
  /** tool_use: `name(arguments)` clipped to 200 chars; tool_result: the output (evidence only), clipped to 32 KiB. */
  text: string;
  toolName?: string;
  /** Links a tool_use to its tool_result (Claude `tool_use_id`, Codex/OpenAI `call_id`). */
  toolUseId?: string;
  /** The tool reported failure (Claude `is_error`). */
  isError?: boolean;
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
}

export interface SessionInfo {
  sessionId?: string;
  cwd?: string;
}

export interface TranscriptStats extends SessionInfo {
  /** Lines that were not JSON objects (or longer than the line cap); skipped, never fatal. */
  malformedLines: number;
  /** Complete lines consumed, blank ones included (elements, for a JSON array). */
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
  /** First session id and cwd seen. */
  readonly session: SessionInfo;
}

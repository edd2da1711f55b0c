import { isDeclined } from './interactions.js';
import { type JsonRecord, str } from './json.js';
import { renderToolUse, toolOutputText } from './render.js';
import { callGist, filledPlaceholders, instructionWrites, type InstructionWrite, shellCommand, todoList, writtenPaths } from './tool-input.js';
import type { TranscriptMessage, TranscriptRole } from './types.js';

/** What one content block contributes to a message; the caller adds id, time and session fields. */
export type BlockMessage = Omit<TranscriptMessage, 'id' | 'timestamp' | 'sessionId' | 'cwd' | 'sidechain' | 'agentId' | 'speaker'>;

/** A tool call waiting for its result: what the result needs to know about it. */
export interface PendingCall {
  name: string;
  input: unknown;
  command?: string;
  writes?: InstructionWrite[];
}

const MAX_PENDING_TOOLS = 10_000;

/**
 * Calls still waiting for their result, so a result (which only carries the call id) can name its
 * tool and command. Bounded: entries leave when their result arrives, the oldest when it is full.
 * A parse resumed from an offset does not know calls made before it; those results stay unnamed.
 */
export class PendingTools {
  private readonly calls = new Map<string, PendingCall>();

  add(id: string, call: PendingCall): void {
    this.calls.set(id, call);
    if (this.calls.size > MAX_PENDING_TOOLS) {
      const oldest = this.calls.keys().next();
      if (oldest.done !== true) this.calls.delete(oldest.value);
    }
  }

  take(id: string): PendingCall | undefined {
    const call = this.calls.get(id);
    this.calls.delete(id);
    return call;
  }
}

/** The id of block `index` of a line: the first block keeps the line's id so ids stay recognisable. */
export function blockId(base: string, index: number): string {
  return index === 0 ? base : `${base}:${index}`;
}

export function toolUse(name: string, input: unknown, callId: string | undefined, tools: PendingTools): BlockMessage {
  const command = shellCommand(name, input);
  const paths = writtenPaths(name, input);
  const todos = todoList(name, input);
  const gist = callGist(name, input);
  const filled = paths === undefined ? undefined : filledPlaceholders(name, input);
  if (callId !== undefined) {
    const writes = instructionWrites(name, input);
    tools.add(callId, { name, input, ...(command !== undefined && { command }), ...(writes !== undefined && { writes }) });
  }
  return {
    role: 'assistant',
    kind: 'tool_use',
    origin: 'assistant',
    text: renderToolUse(name, input),
    toolName: name,
    ...(callId !== undefined && { toolUseId: callId }),
    ...(command !== undefined && { command }),
    ...(paths !== undefined && { paths }),
    ...(todos !== undefined && { todos }),
    ...(gist !== undefined && { gist }),
    ...(filled !== undefined && { filled }),
  };
}

/** Output of a command that goes on in the background: no exit status yet. */
const RUNNING = /^(?:Command running in background|Process running with session ID)/m;

/**
 * The exit status a shell tool's output states: Claude Code "Exit code N", Codex "Exit code: N"
 * (its plain-text shell output) and "Process exited with code N" (unified exec).
 */
export function statedExitCode(text: string): number | undefined {
  const m = /^Exit code:? (-?\d+)/.exec(text) ?? /^Process exited with code (-?\d+)$/m.exec(text.slice(0, 400));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/**
 * A result and the call it answers (undefined when the call is not known). `unflaggedIsSuccess`:
 * the format flags every failed command (Claude Code's `is_error`), so a shell result that is not
 * flagged and states no exit status ended with 0; formats that state every exit pass false.
 */
export function toolResult(
  output: unknown,
  callId: string | undefined,
  tools: PendingTools,
  isError = false,
  unflaggedIsSuccess = true,
): { message: BlockMessage; call?: PendingCall } {
  const call = callId === undefined ? undefined : tools.take(callId);
  const text = toolOutputText(output);
  // A declined call never ran to an end: no exit status, and it failed as a call (an edit wrote nothing).
  const rejected = isDeclined(text, isError);
  let exitCode: number | undefined;
  if (call?.command !== undefined && !rejected)
    exitCode = statedExitCode(text) ?? (isError || !unflaggedIsSuccess || RUNNING.test(text.slice(0, 400)) ? undefined : 0);
  const message: BlockMessage = {
    role: 'user',
    kind: 'tool_result',
    origin: 'tool',
    text,
    ...(call !== undefined && { toolName: call.name }),
    ...(callId !== undefined && { toolUseId: callId }),
    ...((isError || rejected || (exitCode !== undefined && exitCode !== 0)) && { isError: true }),
    ...(rejected && { rejected: true }),
    ...(call?.command !== undefined && { command: call.command }),
    ...(exitCode !== undefined && { exitCode }),
  };
  return { message, ...(call !== undefined && { call }) };
}

/** What the agent wrote into CLAUDE.md / AGENTS.md, once the write succeeded: the person's standing instructions. */
export function instructionMessages(call: PendingCall | undefined, failed: boolean): BlockMessage[] {
  if (call?.writes === undefined || failed) return [];
  return call.writes.map((w) => ({ role: 'assistant', kind: 'text', origin: 'instructions', text: `${w.path}:\n${w.text}`, toolName: call.name }));
}

/**
 * An Anthropic content block (also the text parts of OpenAI-style content). Blank text, images,
 * redacted thinking and unknown block types give nothing. Text is the speaker's: `typed` for the
 * user (callers classify further), `assistant` otherwise.
 */
export function anthropicBlock(block: JsonRecord, role: TranscriptRole, tools: PendingTools): BlockMessage | undefined {
  switch (block.type) {
    case 'text':
    case 'input_text':
    case 'output_text': {
      const text = str(block.text);
      if (text === undefined || text.trim() === '') return undefined;
      return { role, kind: 'text', text, origin: role === 'user' ? 'typed' : role === 'assistant' ? 'assistant' : 'system' };
    }
    case 'thinking': {
      const text = str(block.thinking);
      return text === undefined ? undefined : { role: 'assistant', kind: 'thinking', origin: 'assistant', text };
    }
    case 'tool_use':
    case 'server_tool_use':
      return toolUse(str(block.name) ?? 'tool', block.input ?? {}, str(block.id), tools);
    case 'tool_result':
      return toolResult(block.content, str(block.tool_use_id), tools, block.is_error === true).message;
    default:
      return undefined;
  }
}

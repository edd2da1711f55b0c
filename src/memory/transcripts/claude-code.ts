/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`, and the
 * subagent and compaction sidechains it writes next to them). Each line is an event:
 * `user`/`assistant` lines carry an API message (the assistant's content blocks usually one per
 * line), `queue-operation` lines the prompts typed while the agent was busy, `attachment` lines
 * context Claude Code adds (queued prompts, CLAUDE.md files), `summary` lines a session title,
 * `system` lines notices (compact boundaries, local slash commands). Other line types
 * (file-history-snapshot, progress, …) carry no conversation and are skipped.
 */
import { anthropicBlock, blockId, type BlockMessage, instructionMessages, PendingTools, toolResult, toolUse } from './blocks.js';
import { ASK_TOOL, isRejection, parseAnswers, PLAN_TOOL, planText, planVerdict, rejectionReason, renderAnswers } from './interactions.js';
import { flag, isRecord, type JsonRecord, str, timestamp } from './json.js';
import { claudeUserText, INJECTED } from './origins.js';
import { QueuedPrompts } from './queue.js';
import { contentBlocks, contentText } from './render.js';
import { planFileText } from './tool-input.js';
import type { LineParser, SessionInfo, TranscriptMessage, TranscriptRole } from './types.js';

type Shared = Pick<TranscriptMessage, 'timestamp' | 'sessionId' | 'cwd' | 'agentId' | 'sidechain' | 'compactSummary'>;

/** The prompt Claude Code sends the sidechain that writes a compaction summary. */
/** A slash command as typed into the prompt (`/compact`, `/review some args`). */
const SLASH_TYPED = /^\/[\w:-]+(?:\s|$)/;
const COMPACTION_PROMPT = /^\s*Your task is to create a detailed summary of the conversation/;

/** A Claude Code line: it names its session or its own uuid, or is a file-history snapshot. */
export function detect(line: JsonRecord): boolean {
  return (str(line.sessionId) ?? str(line.uuid) ?? str(line.leafUuid)) !== undefined || line.type === 'file-history-snapshot';
}

export function createClaudeCodeParser(): LineParser {
  const session: SessionInfo = {};
  const tools = new PendingTools();
  const queue = new QueuedPrompts();
  /** ExitPlanMode plans waiting for the person's verdict, by call id. */
  const plans = new Map<string, TranscriptMessage>();
  let lastPlanFile: string | undefined;
  let lastAssistantText: string | undefined;
  /** This file is a compaction sidechain: its last assistant text is the summary. */
  let compaction = false;
  let sawSidechainPrompt = false;
  let heldSummary: TranscriptMessage | undefined;

  function common(line: JsonRecord): Shared {
    const sessionId = str(line.sessionId);
    const cwd = str(line.cwd);
    const agentId = str(line.agentId);
    const time = timestamp(line.timestamp);
    session.sessionId ??= sessionId;
    session.cwd ??= cwd;
    if (agentId !== undefined && session.agentId === undefined) {
      session.agentId = agentId;
      if (agentId.startsWith('acompact')) compaction = true;
    }
    return {
      ...(time !== undefined && { timestamp: time }),
      ...(sessionId !== undefined && { sessionId }),
      ...(cwd !== undefined && { cwd }),
      ...(agentId !== undefined && { agentId }),
      ...flag('sidechain', line.isSidechain),
      ...flag('compactSummary', line.isCompactSummary),
    };
  }

  /** A text the user side of the conversation holds: typed, queued, a command, a reminder… */
  function userText(text: string, id: string, shared: Shared, meta: boolean): TranscriptMessage[] {
    if (shared.compactSummary === true) return [{ id, role: 'user', kind: 'summary', origin: 'summary', text, ...shared }];
    const sidechain = shared.sidechain === true;
    let c = claudeUserText(text, { meta, sidechain });
    if (sidechain && !sawSidechainPrompt && c.origin === 'agent') {
      sawSidechainPrompt = true;
      if (COMPACTION_PROMPT.test(text)) compaction = true;
    }
    if (compaction && c.origin === 'agent' && COMPACTION_PROMPT.test(text)) c = { origin: 'system', text };
    const kind = c.origin === 'summary' ? 'summary' : 'text';
    const message: TranscriptMessage = {
      id,
      role: 'user',
      kind,
      origin: c.origin,
      text: c.text,
      ...shared,
      ...((meta || INJECTED.has(c.origin)) && { meta: true }),
      ...(c.origin === 'summary' && { compactSummary: true }),
    };
    if (c.origin === 'command') queue.arrived(c.text);
    if (c.origin !== 'typed') return [message];
    // A queued prompt delivered as this message is this message; others queued before it were never delivered.
    return queue.arrived(c.text) ? [message] : [...queue.release(), message];
  }

  function assistantText(part: BlockMessage, id: string, shared: Shared): TranscriptMessage[] {
    lastAssistantText = part.text;
    const message: TranscriptMessage = { id, ...part, ...shared };
    if (!compaction) return [message];
    const previous = heldSummary;
    heldSummary = message;
    return previous === undefined ? [] : [previous];
  }

  function planCall(block: JsonRecord, id: string, shared: Shared): TranscriptMessage[] {
    const callId = str(block.id);
    const use = toolUse(PLAN_TOOL, block.input ?? {}, callId, tools);
    const plan: TranscriptMessage = {
      id,
      role: 'assistant',
      kind: 'text',
      origin: 'plan',
      text: planText(block.input, '', undefined) ?? '',
      plan: 'pending',
      toolName: PLAN_TOOL,
      ...shared,
    };
    if (callId === undefined) return plan.text === '' ? [{ id, ...use, ...shared }] : [plan];
    plans.set(callId, { ...plan, toolUseId: callId });
    return [];
  }

  function toolResultBlock(block: JsonRecord, id: string, shared: Shared, toolUseResult: unknown): TranscriptMessage[] {
    const callId = str(block.tool_use_id);
    const isError = block.is_error === true;
    const { message, call } = toolResult(block.content, callId, tools, isError);
    const result: TranscriptMessage = { id, ...message, ...shared };
    const reason = isError ? rejectionReason(message.text) : undefined;
    const feedback: TranscriptMessage | undefined = reason === undefined ? undefined : { ...result, kind: 'text', origin: 'feedback', text: reason };
    if (call?.name === PLAN_TOOL) {
      const held = callId === undefined ? undefined : plans.get(callId);
      if (callId !== undefined) plans.delete(callId);
      const text = held?.text || planText(call.input, message.text, toolUseResult) || lastPlanFile || lastAssistantText;
      const verdict = planVerdict(message.text, isError);
      const plan: TranscriptMessage[] = text
        ? [{ ...(held ?? { id, role: 'assistant', kind: 'text', origin: 'plan', toolName: PLAN_TOOL, ...shared }), text, plan: verdict }]
        : [];
      return feedback ? [...plan, feedback] : plan;
    }
    if (feedback) return [feedback];
    if (call?.name === ASK_TOOL && !isRejection(message.text)) {
      const answers = parseAnswers(call.input, message.text, toolUseResult);
      if (answers.length > 0) return [{ ...result, kind: 'text', origin: 'answer', text: renderAnswers(answers), answers }];
    }
    const written = instructionMessages(call, isError).map((m, i) => ({ id: `${id}:instructions${i === 0 ? '' : `:${i}`}`, ...m, ...shared }));
    return [result, ...written];
  }

  function conversation(line: JsonRecord, base: string): TranscriptMessage[] {
    const message = isRecord(line.message) ? line.message : {};
    const role: TranscriptRole = (message.role ?? line.type) === 'assistant' ? 'assistant' : 'user';
    const shared = common(line);
    const meta = line.isMeta === true;
    const out: TranscriptMessage[] = [];
    contentBlocks(message).forEach((raw: unknown, index) => {
      if (!isRecord(raw)) return;
      const id = blockId(base, index);
      if (role === 'user' && raw.type === 'text') {
        const text = str(raw.text);
        if (text !== undefined && text.trim() !== '') out.push(...userText(text, id, shared, meta));
      } else if (role === 'user' && raw.type === 'tool_result') {
        out.push(...toolResultBlock(raw, id, shared, line.toolUseResult));
      } else if (role === 'assistant' && raw.type === 'tool_use' && raw.name === PLAN_TOOL) {
        out.push(...planCall(raw, id, shared));
      } else {
        const part = anthropicBlock(raw, role, tools);
        if (part === undefined) return;
        if (part.kind === 'tool_use' && part.toolName !== undefined) lastPlanFile = planFileText(part.toolName, raw.input) ?? lastPlanFile;
        if (part.kind === 'text' && role === 'assistant') out.push(...assistantText(part, id, shared));
        else out.push({ id, ...part, ...shared });
      }
    });
    return out;
  }

  function queued(line: JsonRecord, base: string): TranscriptMessage[] {
    if (line.operation !== 'enqueue') return [];
    const text = contentText(line.content);
    if (text.trim() === '') return [];
    const shared = common(line);
    const c = claudeUserText(text, { meta: false, sidechain: shared.sidechain === true });
    // Only the person's prompts and slash commands; task notifications arrive as messages of their own.
    if (c.origin !== 'typed') return [];
    const origin = SLASH_TYPED.test(c.text) ? 'command' : 'queued';
    return queue.hold({ id: base, role: 'user', kind: 'text', origin, text: c.text, ...shared, ...(origin === 'command' && { meta: true }) });
  }

  function attachment(line: JsonRecord, base: string): TranscriptMessage[] {
    const a = isRecord(line.attachment) ? line.attachment : {};
    if (a.type === 'queued_command') {
      const text = contentText(a.prompt);
      if (text.trim() === '') return [];
      queue.arrived(text);
      const mode = str(a.commandMode) ?? 'prompt';
      if (mode !== 'prompt') return [];
      return [{ id: base, role: 'user', kind: 'text', origin: 'queued', text, ...common(line) }];
    }
    if (a.type === 'nested_memory') {
      const inner = isRecord(a.content) ? a.content : {};
      const text = str(inner.content) ?? str(a.content);
      const path = str(inner.path) ?? str(a.path) ?? 'CLAUDE.md';
      if (text === undefined || text.trim() === '') return [];
      return [{ id: base, role: 'user', kind: 'text', origin: 'instructions', text: `Contents of ${path}:\n\n${text}`, meta: true, ...common(line) }];
    }
    return [];
  }

  function system(line: JsonRecord, base: string): TranscriptMessage[] {
    const content = str(line.content);
    switch (line.subtype) {
      case 'compact_boundary':
        return [{ id: base, role: 'system', kind: 'boundary', origin: 'system', text: content ?? 'Conversation compacted', ...common(line) }];
      case 'local_command': {
        if (content === undefined) return [];
        const { text } = claudeUserText(content, { meta: false, sidechain: false });
        queue.arrived(text);
        return [{ id: base, role: 'user', kind: 'text', origin: 'command', text, meta: true, ...common(line) }];
      }
      case 'away_summary':
        return content === undefined ? [] : [{ id: base, role: 'system', kind: 'summary', origin: 'system', text: content, ...common(line) }];
      default:
        return [];
    }
  }

  return {
    session,
    parse(line, fallbackId) {
      const base = str(line.uuid) ?? fallbackId;
      switch (line.type) {
        case 'user':
        case 'assistant':
          return conversation(line, base);
        case 'queue-operation':
          return queued(line, base);
        case 'attachment':
          return attachment(line, base);
        case 'summary': {
          const text = str(line.summary);
          // No uuid of its own (leafUuid names the message it summarises), so the offset names it.
          return text === undefined ? [] : [{ id: base, role: 'system', kind: 'summary', origin: 'system', text }];
        }
        case 'system':
          return system(line, base);
        default:
          return [];
      }
    },
    finish() {
      const out = [...queue.release(), ...plans.values()];
      plans.clear();
      if (heldSummary !== undefined) {
        out.push({ ...heldSummary, kind: 'summary', origin: 'summary', compactSummary: true });
        heldSummary = undefined;
      }
      return out;
    },
  };
}

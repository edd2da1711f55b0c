/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`). Each line is an
 * event: `user`/`assistant` lines carry an API message (the assistant's content blocks usually one
 * per line), `summary` lines a session title, `system` lines notices such as `compact_boundary`.
 * Other line types (file-history-snapshot, …) carry no conversation and are skipped.
 */
import { anthropicBlock, blockId, PendingTools, type BlockMessage } from './blocks.js';
import { flag, isRecord, type JsonRecord, str, timestamp } from './json.js';
import type { LineParser, SessionInfo, TranscriptMessage, TranscriptRole } from './types.js';

export function createClaudeCodeParser(): LineParser {
  const session: SessionInfo = {};
  const tools = new PendingTools();

  function common(line: JsonRecord): Omit<TranscriptMessage, keyof BlockMessage | 'id'> {
    const sessionId = str(line.sessionId);
    const cwd = str(line.cwd);
    const time = timestamp(line.timestamp);
    session.sessionId ??= sessionId;
    session.cwd ??= cwd;
    return {
      ...(time !== undefined && { timestamp: time }),
      ...(sessionId !== undefined && { sessionId }),
      ...(cwd !== undefined && { cwd }),
      ...flag('sidechain', line.isSidechain),
      ...flag('meta', line.isMeta),
      ...flag('compactSummary', line.isCompactSummary),
    };
  }

  function conversation(line: JsonRecord, base: string): TranscriptMessage[] {
    const message = isRecord(line.message) ? line.message : {};
    const role: TranscriptRole = (message.role ?? line.type) === 'assistant' ? 'assistant' : 'user';
    const shared = common(line);
    const { content } = message;
    if (typeof content === 'string') {
      if (content.trim() === '') return [];
      // The summary a compaction writes arrives as a plain user message flagged isCompactSummary.
      const kind = shared.compactSummary === true ? 'summary' : 'text';
      return [{ id: base, role, kind, text: content, ...shared }];
    }
    if (!Array.isArray(content)) return [];
    const out: TranscriptMessage[] = [];
    content.forEach((block: unknown, index) => {
      const part = isRecord(block) ? anthropicBlock(block, role, tools) : undefined;
      if (part !== undefined) out.push({ id: blockId(base, index), ...part, ...shared });
    });
    return out;
  }

  return {
    session,
    parse(line, fallbackId) {
      const base = str(line.uuid) ?? fallbackId;
      switch (line.type) {
        case 'user':
        case 'assistant':
          return conversation(line, base);
        case 'summary': {
          const text = str(line.summary);
          // No uuid of its own (leafUuid names the message it summarises), so the offset names it.
          return text === undefined ? [] : [{ id: base, role: 'system', kind: 'summary', text }];
        }
        case 'system': {
          if (line.subtype !== 'compact_boundary') return [];
          const text = str(line.content) ?? 'Conversation compacted';
          return [{ id: base, role: 'system', kind: 'boundary', text, ...common(line) }];
        }
        default:
          return [];
      }
    },
  };
}

/**
 * The transcript formats, in one place: each module detects its own lines and parses them. The
 * order is the order of detection: a line is the first format's that claims it.
 */
import * as claudeCode from './claude-code.js';
import * as codex from './codex.js';
import type { JsonRecord } from './json.js';
import * as messages from './messages.js';
import type { LineParser, TranscriptFormat } from './types.js';

export interface FormatModule {
  name: TranscriptFormat;
  detect(line: JsonRecord): boolean;
  parse(): LineParser;
}

export const FORMATS: readonly FormatModule[] = [
  { name: 'codex', detect: codex.detect, parse: codex.createCodexParser },
  { name: 'claude-code', detect: claudeCode.detect, parse: claudeCode.createClaudeCodeParser },
  { name: 'messages', detect: messages.detect, parse: messages.createMessagesParser },
];

export function formatNamed(name: TranscriptFormat): FormatModule {
  const f = FORMATS.find((x) => x.name === name);
  if (f === undefined) throw new Error(`no transcript format ${name}`);
  return f;
}

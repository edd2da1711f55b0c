/**
 * Compaction, the pure parts: the analysis-then-summary prompt, parsing the answer into a structured
 * summary (the analysis is thrown away: it is a draft that improves the summary, not context), the
 * cut between what is summarised and the newest turns kept verbatim, and the summarisation request.
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../llm/tokens.js';
import { contentBlocks, headTail, PLACEHOLDER_PREFIX, resultText } from './blocks.js';
import { messagesTokens, messageTokens } from './token-count.js';
import { repairInvariants } from './invariants.js';
import { fail, ok, type Result, type SummarizeRequest } from './types.js';

export const COMPACT_SYSTEM =
  'You write handoff summaries for a coding agent whose context window is full. Another instance continues the task ' +
  'from your summary and the newest turns alone, so keep every fact it needs to continue, and nothing else.';

export const SUMMARY_SECTIONS = ['Goal', 'Constraints', 'Done', 'Current', 'Remaining', 'Decisions', 'Errors', 'Files', 'Next step'] as const;

export const COMPACT_PROMPT = `The context window is full. Summarise the conversation above so the work can continue without it.

First think in an <analysis> block: go through the conversation in order and note the user's requests and constraints, what was done, each decision and why, every error (and whether it was fixed) and every file read or changed. If the conversation starts with an earlier summary, carry forward everything in it that still holds.

Then write a <summary> block with exactly these sections:

## Goal
The task as the user stated it, verbatim.
## Constraints
- each requirement or preference the user stated
## Done
- each completed step
## Current
What was in progress when the context filled.
## Remaining
- each step still to do
## Decisions
- decision — rationale
## Errors
- each unresolved error with its exact message (copied, not paraphrased)
## Files
- each file path read, created or changed, and what was done to it
## Next step
The single next action.

Only the <summary> block is kept; the analysis is discarded.`;

export interface StructuredSummary {
  goal: string;
  constraints: string[];
  done: string[];
  current: string;
  remaining: string[];
  decisions: string[];
  errors: string[];
  files: string[];
  nextStep: string;
  /** The summary as written, analysis stripped: what goes back into the history. */
  text: string;
}

type ListKey = 'constraints' | 'done' | 'remaining' | 'decisions' | 'errors' | 'files';
type TextKey = 'goal' | 'current' | 'nextStep';

/** Heading → field; the first match wins, so "In progress" is current, not done. */
const HEADINGS: Array<[RegExp, ListKey | TextKey]> = [
  [/next/i, 'nextStep'],
  [/current|in.progress/i, 'current'],
  [/goal|task|objective/i, 'goal'],
  [/constraint|requirement|preference/i, 'constraints'],
  [/remaining|to.?do|pending/i, 'remaining'],
  [/done|complete|progress/i, 'done'],
  [/decision/i, 'decisions'],
  [/error|issue|problem|blocker/i, 'errors'],
  [/file/i, 'files'],
];
const LISTS = new Set<string>(['constraints', 'done', 'remaining', 'decisions', 'errors', 'files']);

export function parseSummary(raw: string): Result<StructuredSummary> {
  const withoutAnalysis = raw.replace(/<analysis>[\s\S]*?(<\/analysis>|$)/gi, '');
  const tagged = /<summary>([\s\S]*?)(<\/summary>|$)/i.exec(withoutAnalysis);
  const text = (tagged ? (tagged[1] ?? '') : withoutAnalysis).trim();
  if (!text) return fail('compaction_failed', 'the summary was empty');
  const s: StructuredSummary = { goal: '', constraints: [], done: [], current: '', remaining: [], decisions: [], errors: [], files: [], nextStep: '', text };
  let field: ListKey | TextKey | undefined;
  for (const line of text.split('\n')) {
    const heading = /^\s*(?:#{1,6}\s*|\*\*)(.+?)(?:\*\*)?:?\s*$/.exec(line);
    if (heading) {
      field = HEADINGS.find(([re]) => re.test(heading[1] ?? ''))?.[1];
      continue;
    }
    const t = line.trim();
    if (!field || !t) continue;
    if (LISTS.has(field)) {
      const item = t.replace(/^(?:[-*•]|\d+[.)])\s+/, '');
      if (item && !/^\(?none\)?\.?$/i.test(item)) (s[field as ListKey] as string[]).push(item);
    } else s[field as TextKey] = s[field as TextKey] ? `${s[field as TextKey]}\n${t}` : t;
  }
  return ok(s);
}

const hasResults = (m: MessageParam): boolean => contentBlocks(m).some((b) => b.type === 'tool_result');

/**
 * Index where the kept tail starts: the newest messages within `keepTokens`, always including the
 * current turn (from `protectedFrom`). A cut only falls before an assistant message or a user message
 * without tool results, so no tool_use is ever separated from its tool_result. Undefined: no cut.
 */
export function findCut(messages: readonly MessageParam[], keepTokens: number, protectedFrom: number): number | undefined {
  let best: number | undefined;
  let tail = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    const m = messages[i] as MessageParam;
    tail += messageTokens(m);
    if (i > protectedFrom) continue;
    if (best !== undefined && tail > keepTokens) break;
    if (m.role === 'assistant' || !hasResults(m)) best = i;
  }
  return best;
}

/** A copy of `m` for the summariser: tool output cut to `cap` characters, images and thinking left out. */
function shrink(m: MessageParam, cap: number): MessageParam {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  const content: ContentBlockParam[] = [];
  for (const b of m.content) {
    if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
    if (b.type === 'image' || b.type === 'document') content.push({ type: 'text', text: `[${b.type} omitted]` });
    else if (b.type === 'tool_result') {
      const text = cap > 0 ? headTail(resultText(b), cap, 'cut for the summary') : `${PLACEHOLDER_PREFIX}output omitted for the summary]`;
      content.push({ type: 'tool_result', tool_use_id: b.tool_use_id, content: text || '(empty)', ...(b.is_error ? { is_error: true } : {}) });
    } else if (b.type === 'tool_use') {
      const input = JSON.stringify(b.input ?? {});
      content.push(input.length > 4 * Math.max(cap, 500) ? { ...b, input: { summary_note: headTail(input, 4 * Math.max(cap, 500), 'input cut') } } : b);
    } else content.push(b);
  }
  return { role: m.role, content };
}

function withPrompt(msgs: MessageParam[]): MessageParam[] {
  const last = msgs[msgs.length - 1];
  if (last?.role !== 'user') return [...msgs, { role: 'user', content: COMPACT_PROMPT }];
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  return [...msgs.slice(0, -1), { role: 'user', content: [...blocks, { type: 'text', text: COMPACT_PROMPT }] }];
}

export interface SummarizeBuild {
  /** Input tokens the summarisation request may use. */
  maxInputTokens: number;
  /** Characters of each tool result shown to the summariser (the summary needs the gist, not the bulk). */
  toolResultChars: number;
  maxTokens: number;
}

/** The request that summarises `head`, shrunk until it fits `maxInputTokens`. */
export function buildSummarizeRequest(head: readonly MessageParam[], o: SummarizeBuild): SummarizeRequest {
  const budget = o.maxInputTokens - estimateTokens(COMPACT_SYSTEM);
  let msgs: MessageParam[] = [];
  for (const cap of [o.toolResultChars, Math.min(500, o.toolResultChars), 0]) {
    msgs = withPrompt(repairInvariants(head.map((m) => shrink(m, cap))).messages);
    if (messagesTokens(msgs) <= budget) return { system: COMPACT_SYSTEM, messages: msgs, maxTokens: o.maxTokens };
  }
  // Still too large: the first message (the task, or the previous summary) and the newest that fit.
  const shrunk = head.map((m) => shrink(m, 0));
  for (let from = 2; from < shrunk.length; from++) {
    const gap: MessageParam = { role: 'assistant', content: `${PLACEHOLDER_PREFIX}${from - 1} messages left out here to fit the summary request]` };
    msgs = withPrompt(repairInvariants([...shrunk.slice(0, 1), gap, ...shrunk.slice(from)]).messages);
    if (messagesTokens(msgs) <= budget) break;
  }
  return { system: COMPACT_SYSTEM, messages: msgs, maxTokens: o.maxTokens };
}

export const ACK_TEXT = 'Understood. I have the summary and my notes, and will continue the task from there.';

/** The message that replaces the compacted part: the task verbatim, the summary, the notes. */
export function summaryMessageText(a: { task: string; summary: string; notes: string; compaction: number }): string {
  const parts = [
    `${PLACEHOLDER_PREFIX}compaction ${a.compaction}: earlier turns of this task were summarised to fit the context window. Saved tool outputs stay readable at their paths.]`,
    `<task>\n${a.task}\n</task>`,
    `<summary>\n${a.summary}\n</summary>`,
  ];
  if (a.notes) parts.push(`<notes>\nYour notes (the notes tool), kept verbatim:\n${a.notes}\n</notes>`);
  parts.push('Continue the task from here; the newest turns follow unchanged.');
  return parts.join('\n\n');
}

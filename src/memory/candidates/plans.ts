/**
 * Plans the person approved: Claude Code's ExitPlanMode, or a plan proposed in the assistant's text
 * (Codex's <proposed_plan>) that the person's next words approve. The gist is one decision; the
 * rules stated inside the plan are units of their own.
 */
import type { ExtractMessage } from '../transcripts/types.js';
import { GO_AHEAD_REPLIES } from '../nlp/lexicon.js';
import { originOf, type Passage } from './unit.js';

/** An approved plan: its title and gist as one decision ("Built: …" when the session then carried it out), and the rules stated inside it. */
export function planPassages(text: string, built = false): Passage[] {
  const gist = planGistText(text);
  // The plan's first section (its summary or context) says what it is about; the rest is detail.
  const second = nthHeading(text, 2);
  const lead: Passage[] = second < 0 ? [] : [{ text: text.slice(0, second), source: 'plan-body', marks: { lead: true } }];
  const body: Passage = { text: second < 0 ? text : text.slice(second), source: 'plan-body' };
  return [...(gist === undefined ? [] : [{ text: `${built ? 'Built' : 'Approved plan'}: ${gist}`, source: 'plan' as const, whole: true }]), ...lead, body];
}

/** Offset of the n-th markdown heading of level 2 or 3, or -1. */
function nthHeading(text: string, n: number): number {
  const re = /^#{2,3}\s/gm;
  for (let i = 1, m = re.exec(text); m !== null; i++, m = re.exec(text)) if (i === n) return m.index;
  return -1;
}

/** "Title — gist": what a plan is about, from its title and its summary (or approach) section. */
export function planGistText(text: string): string | undefined {
  const lines = text.split('\n').map((l) => l.trim());
  const title = (lines.find((l) => /^#\s/.test(l)) ?? '').replace(/^#+\s*(?:plan:?\s*)?/i, '').trim();
  const after = (heading: RegExp): string | undefined => {
    const at = lines.findIndex((l) => /^#{2,4}\s/.test(l) && heading.test(l));
    if (at < 0) return undefined;
    return lines.slice(at + 1).find((l) => l !== '' && !/^#/.test(l) && !/^(?:[-*|`>]|\d+[.)])/.test(l));
  };
  const gist = after(/summary|overview|goal/i) ?? after(/strategy|approach|solution|decision/i) ?? after(/context/i);
  const parts = [title, gist].filter((x): x is string => x !== undefined && x !== '');
  return parts.length === 0 ? undefined : parts.join(' — ');
}

/** The session went on to change files after message `i`: the plan approved there was carried out. */
export function carriedOut(messages: readonly ExtractMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j] as ExtractMessage;
    if (m.kind === 'tool_use' && (m.paths?.length ?? 0) > 0 && m.isError !== true) return true;
  }
  return false;
}

/** Codex and others propose plans in the assistant's text; the person's next words approve them. */
export const PROPOSED = /<proposed_plan>([\s\S]*?)(?:<\/proposed_plan>|$)/;
/** What approves a plan put in the agent's text: a go-ahead, or a word that accepts or starts it. */
const APPROVAL = new RegExp(
  String.raw`^(?:please\s+)?(?:${[...GO_AHEAD_REPLIES, 'implement', 'approved?', 'looks good', 'yes', 'yep', 'ok(?:ay)?', "let'?s do it", "let'?s go", 'execute', 'build it', 'start'].join('|')})\b`,
  'i',
);

export function approvedNext(messages: readonly ExtractMessage[], i: number): boolean {
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j] as ExtractMessage;
    const origin = originOf(m);
    if (origin === 'typed' || origin === 'queued') return m.text.trim().split(/\s+/).length <= 12 && APPROVAL.test(m.text.trim());
  }
  return false;
}

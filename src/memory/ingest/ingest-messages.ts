/** What extraction and the episodic index take from each transcript message. */
import { EPISODE_TEXT_MAX, type Episode } from '../episodic/episodes.js';
import type { ExtractMessage } from '../extract/types.js';
import { clip, TOOL_RESULT_MAX } from '../transcripts/render.js';
import type { TranscriptMessage } from '../transcripts/types.js';

/** Extraction sees tool output only as a short excerpt: it is evidence, never a memory. */
const EXTRACT_TOOL_RESULT_MAX = 500;
const EXTRACT_TEXT_MAX = 4000;
/** Summaries, plans, instruction files and what the person typed or pasted (a spec is mined line by line) are kept (nearly) whole. */
const LONG_ORIGINS = new Set<TranscriptMessage['origin']>(['summary', 'plan', 'instructions', 'typed', 'queued']);

/** What extraction reads of a message besides its text (ExtractMessage's fields), when set. */
const KEPT = [
  'id',
  'role',
  'kind',
  'origin',
  'toolName',
  'isError',
  'timestamp',
  'meta',
  'sidechain',
  'compactSummary',
  'speaker',
  'answers',
  'plan',
  'agentId',
  'command',
  'exitCode',
  'paths',
  'gist',
] as const satisfies readonly Exclude<keyof ExtractMessage, 'text'>[];

export function forExtraction(m: TranscriptMessage): ExtractMessage | undefined {
  if (m.kind === 'thinking' || m.kind === 'boundary') return undefined;
  const max = m.kind === 'tool_result' ? EXTRACT_TOOL_RESULT_MAX : LONG_ORIGINS.has(m.origin) ? TOOL_RESULT_MAX : EXTRACT_TEXT_MAX;
  const kept = Object.fromEntries(KEPT.flatMap((k) => (m[k] === undefined ? [] : [[k, m[k]]]))) as Omit<ExtractMessage, 'text'>;
  // Tool output comes unmasked (masked-messages.ts): extraction reads its excerpt as evidence only
  // (a check passed, an error), and no candidate, memory or model prompt is made of it.
  return { ...kept, text: clip(m.text, max) };
}

/** What the episodic index keeps: said and done, never tool output (the messages come masked). */
export function episodeOf(m: TranscriptMessage): Episode | undefined {
  if (m.meta || m.compactSummary || !(m.kind === 'text' || m.kind === 'tool_use')) return undefined;
  if (m.role === 'system' || m.text.trim() === '') return undefined;
  const text = clip(m.text, EPISODE_TEXT_MAX);
  return {
    sessionId: '', // known once the transcript was read
    messageId: m.id,
    project: null,
    role: m.role,
    kind: m.kind,
    text,
    ...(m.speaker !== undefined && { speaker: m.speaker }),
    ...(m.timestamp !== undefined && { at: m.timestamp }),
  };
}

/** Messages back from a rejection within which the rejected call or plan is looked for. */
const REJECTED_WITHIN = 4;

/**
 * A rejection travels with what it rejected: the agent's call or plan the person turned down gets
 * the person's reason appended to its episode, so a search that finds the rejected "fix" finds
 * the rejection with it. `episodes` is the session's list so far, `m` the rejection just read.
 */
export function markRejected(episodes: Episode[], m: TranscriptMessage): void {
  const reason = m.origin === 'feedback' ? m.text.replace(/\s+/g, ' ').trim() : undefined;
  if (reason === '' || (reason === undefined && !(m.kind === 'tool_result' && m.rejected === true))) return;
  for (let i = episodes.length - 1, seen = 0; i >= 0 && seen < REJECTED_WITHIN; i--, seen++) {
    const e = episodes[i] as Episode;
    if (e.role !== 'assistant') continue;
    if (e.text.includes('[rejected by the person')) return; // the call's result and the reason name one rejection
    e.text = clip(`${e.text} [rejected by the person${reason === undefined ? '' : `: ${reason}`}]`, EPISODE_TEXT_MAX);
    return;
  }
}

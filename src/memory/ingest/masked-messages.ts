/**
 * The one redaction pass over a transcript: every message is masked as it streams from the reader,
 * before the episodic index, the digest, the state record or extraction sees it, so nothing they
 * keep (episodes, digest commands and errors, state lines, memories) holds a secret whatever it
 * takes from the message. Text is masked whole (its lines joined, see redact/split.ts), and a message's
 * text is joined with the one its speaker said before, so a key pasted across two messages is
 * masked in both. File paths are left to the digest, which shows the project's own relative.
 * Tool output (up to 32 KiB a result, most of a transcript's bytes) is evidence no surface keeps
 * whole: its command is masked here, and the line a reader keeps of it (the digest's error line,
 * the state's commit) is masked where it is taken; extraction reads it only as evidence (a check
 * passed, an error), never as a candidate. Thinking is read by nothing.
 */
import { commandGist } from '../transcripts/index.js';
import type { TranscriptMessage } from '../transcripts/types.js';
import { applyMasks, type MaskHit, redact, type Redaction } from '../../redact/redact.js';
import { joinedSecret } from '../../redact/split.js';

/** Messages held back, so a message can still be masked when the speaker's next one completes a secret. */
const HOLD = 8;

interface Held {
  m: TranscriptMessage;
  /** The text as read; masked only when the message leaves. */
  raw: string;
  hits: MaskHit[];
}

/**
 * Where the values a command's masks hide occur in the message's text: a tool call's text quotes its
 * command, where the rules may read it otherwise (`Bash({"command":"DB_PASSWORD=a&b"})`).
 */
function commandValues(command: string, masks: readonly MaskHit[], text: string): MaskHit[] {
  const hits: MaskHit[] = [];
  for (const h of masks) {
    const value = command.slice(h.start, h.end);
    if (value.length < 4) continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) hits.push({ ...h, start: at, end: at + value.length });
  }
  return hits;
}

/** How many redactions one transcript's read keeps, and the longest text it keeps one of. */
const SEEN_MAX = 512;
const SEEN_CHARS = 4096;

/**
 * Redactions of the texts lately seen, masked once each: a call's result repeats its command, a
 * task list repeats its items at every update, and a resumed conversation its messages. A
 * redaction depends on its text alone; callers copy what they change of it.
 */
class Masks {
  private readonly seen = new Map<string, Redaction>();
  of(text: string): Redaction {
    if (text.length > SEEN_CHARS) return redact(text);
    let r = this.seen.get(text);
    if (r === undefined) {
      if (this.seen.size >= SEEN_MAX) this.seen.clear();
      r = redact(text);
      this.seen.set(text, r);
    }
    return r;
  }
  text = (s: string): string => this.of(s).text;
}

/**
 * Everything of a message but its text and paths, masked; `hits` gains the command's values in the
 * text. A shell call's gist is the head of its command, made again from the masked command: what
 * the command hides, the gist never shows, even where the gist cuts a secret in two.
 */
function maskFields(m: TranscriptMessage, hits: MaskHit[], masks: Masks): TranscriptMessage {
  const out: TranscriptMessage = { ...m };
  let command: string | undefined;
  if (m.command !== undefined) {
    const c = masks.of(m.command);
    command = c.text;
    out.command = command;
    hits.push(...commandValues(m.command, [...c.found, ...c.personal], m.text));
  }
  if (m.answers !== undefined)
    out.answers = m.answers.map((a) => ({
      question: masks.text(a.question),
      answer: masks.text(a.answer),
      ...(a.options !== undefined && { options: a.options.map(masks.text) }),
    }));
  if (m.gist !== undefined)
    out.gist = command !== undefined && m.command !== undefined && m.gist === commandGist(m.command) ? commandGist(command) : masks.text(m.gist);
  if (m.todos !== undefined) out.todos = m.todos.map((t) => ({ ...t, content: masks.text(t.content) }));
  return out;
}

/** Text a speaker may continue in their next message: what they typed or wrote, not tool output. */
const joinable = (m: TranscriptMessage): boolean => m.kind === 'text' || m.kind === 'summary';

function release(h: Held): TranscriptMessage {
  return { ...h.m, text: h.hits.length === 0 ? h.raw : applyMasks(h.raw, h.hits) };
}

/** The messages of `source`, in order, each masked; `tally.secrets` counts the secrets masked in their text. */
export async function* maskedMessages(source: AsyncIterable<TranscriptMessage>, tally = { secrets: 0 }): AsyncGenerator<TranscriptMessage> {
  const held: Held[] = [];
  const masks = new Masks();
  for await (const m of source) {
    const r = m.kind === 'tool_result' || m.kind === 'thinking' ? undefined : masks.of(m.text);
    tally.secrets += r?.found.length ?? 0;
    const hits: MaskHit[] = r === undefined ? [] : [...r.found, ...r.personal];
    const next: Held = { m: maskFields(m, hits, masks), raw: m.text, hits };
    if (joinable(m)) {
      const prev = held.findLast((h) => h.m.role === m.role && h.m.kind !== 'tool_result');
      if (prev !== undefined && joinable(prev.m)) {
        const hit = joinedSecret(prev.raw, m.text, (probe) => redact(probe).found);
        if (hit !== undefined) {
          tally.secrets++;
          prev.hits.push({ kind: hit.kind, ...hit.left });
          next.hits.push({ kind: hit.kind, ...hit.right });
        }
      }
    }
    held.push(next);
    if (held.length > HOLD) yield release(held.shift() as Held);
  }
  for (const h of held) yield release(h);
}

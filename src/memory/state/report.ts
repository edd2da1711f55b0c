/**
 * What an agent's report says is still to do and what it says is done, and whether the person's
 * reply disputes it. The markers are closed classes (words for "pending", "done", "no") in the
 * languages people write to their agents in; the items are the agent's own words.
 */
import { SAYS_DONE } from '../nlp/lexicon.js';

/** A line or sentence that introduces what is left: "Still pending:", "Next steps", "Currently working on:", "Il reste :", "待办". */
const PENDING =
  /\b(?:still (?:pending|open|to do|todo|missing|left)|pending|remaining|remains?|left to do|not (?:yet )?(?:done|implemented|started)(?: yet)?|next steps?|next (?:priority )?(?:items?|tasks?)|up next|(?:currently )?(?:working on|in progress)|follow[- ]?ups?|open items?|outstanding|to ?do|what'?s left|il reste|reste à faire|à faire|en attente|pendiente|pendientes|queda por hacer|falta|faltan|noch offen|offen|ausstehend|noch zu tun|fehlt noch|pendente|da fare|rimane|rimangono)\b|残り|未完了|保留|待办|剩下|未完成|待处理|残タスク/i;
/** A reply that contradicts the agent: "no", "that's wrong", "still broken", "doesn't work". */
const DISPUTE =
  /^(?:no\b|nope\b|wrong\b|not (?:done|fixed|true|quite)\b|non\b|nein\b|niet\b|いいえ|不是|不对)|\b(?:(?:does|did|is|was)n[o']t (?:work|fixed|done|right|correct)|still (?:broken|failing|fails|not working|wrong)|(?:that's|that is|it's) (?:wrong|not (?:right|done|fixed|true))|ça (?:ne )?marche pas|no funciona|funktioniert nicht|non funziona)\b/i;

/** A report that says nothing is left: every earlier open item is settled. */
const NOTHING_LEFT =
  /\b(?:nothing (?:is )?(?:left|pending|remaining|outstanding|open)|no (?:\w+ )?(?:pending|remaining|open|outstanding) (?:items|tasks|work|steps)|all (?:\d+ )?(?:tasks|items|steps) (?:are )?(?:done|complete|completed)|no queda nada(?: pendiente)?|nada pendiente|rien (?:ne reste|à faire|de plus à faire)|nichts (?:mehr )?offen|niente (?:da fare|in sospeso))\b|没有待办|无待办|残りはありません/i;

const ITEM_MAX = 200;
const BULLET = /^\s*(?:[-*•]|\d+[.)]|\[[ x]\])\s+(.+)$/;

function clean(text: string): string {
  const flat = text
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;,。、]$/, '');
  return flat.length <= ITEM_MAX ? flat : `${flat.slice(0, ITEM_MAX - 1)}…`;
}

/** A heading or lead-in that names the pending part, and what it says after its colon, if anything. */
function pendingLead(line: string): { rest: string } | undefined {
  const bare = line.replace(/^\s*(?:#+\s*|[-*•]\s+)?/, '').replace(/\*\*|__/g, '');
  const m = PENDING.exec(bare);
  // The marker must lead the line (a heading, "Still pending: …"), not sit inside a sentence about something else.
  if (m === null || m.index > 12) return undefined;
  const colon = bare.indexOf(':', m.index);
  const colonFull = bare.indexOf('：', m.index);
  const at = colon >= 0 ? colon : colonFull;
  if (at < 0) return bare.length - (m.index + m[0].length) < 4 ? { rest: '' } : undefined;
  return { rest: bare.slice(at + 1).trim() };
}

const indent = (line: string): number => line.length - line.trimStart().length;

/**
 * The list that starts at line `from`, one item per bullet. A bullet with more deeply indented
 * bullets under it titles a group ("3. **Template & UI Layer**" over its steps): its steps are the
 * items. The groups of one list may be set apart by blank lines.
 */
function bulletsAfter(lines: readonly string[], from: number): string[] {
  const list: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const line = lines[j] ?? '';
    if (line.trim() === '') {
      const next = lines.slice(j + 1).find((l) => l.trim() !== '');
      if (list.length > 0 && (next === undefined || !BULLET.test(next))) break;
      continue;
    }
    if (!BULLET.test(line)) break;
    list.push(line);
  }
  return list.flatMap((line, k) => {
    const next = list[k + 1];
    return next !== undefined && indent(next) > indent(line) ? [] : [clean(BULLET.exec(line)?.[1] ?? '')];
  });
}

/** The pending items of a report: the bullets under a "pending" lead-in, or what follows its colon. */
export function reportPending(text: string): string[] {
  // A lead-in may also open a sentence inside a paragraph: "Done (a1b2c3d). Not done yet: the metric."
  const lines = text.split('\n').flatMap((l) => (BULLET.test(l) ? [l] : l.split(/(?<=[.!。])\s+(?=\S)/)));
  let items: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lead = pendingLead(lines[i] ?? '');
    if (lead === undefined) continue;
    const found: string[] = [];
    if (lead.rest !== '') found.push(...lead.rest.split(/;\s+|,\s+(?:and\s+)?(?=\S+\s+\S+)/).map(clean));
    else found.push(...bulletsAfter(lines, i + 1));
    // The last pending part of a report is its final word on what is left.
    if (found.length > 0) items = found.filter((t) => t.length > 3 && !/^(?:none|nothing|n\/a|rien|nada|nichts)\b/i.test(t));
  }
  return items;
}

/**
 * The sentences of a report that say something was done, outside its pending part: those with a
 * word for "done", or all of them when the report opens with one ("Done (a1b2c3d): …").
 */
export function reportClaims(text: string): string[] {
  if (!SAYS_DONE.test(text)) return [];
  const sentences = text
    .split('\n')
    .flatMap((l) => (BULLET.test(l) ? [l] : l.split(/(?<=[.!?。])\s+/)))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const pendingAt = sentences.findIndex((l) => pendingLead(l) !== undefined);
  const before = (pendingAt < 0 ? sentences : sentences.slice(0, pendingAt)).map((s) => s.replace(BULLET, '$1'));
  const opensDone = before[0] !== undefined && SAYS_DONE.test(before[0]);
  return before
    .filter((s) => (opensDone || SAYS_DONE.test(s)) && !/\?\s*$/.test(s))
    .map(clean)
    .filter((s) => s.length > 8);
}

/** The report says nothing is left to do. */
export function saysNothingLeft(text: string): boolean {
  return NOTHING_LEFT.test(text);
}

/** The person's reply contradicts what the agent just said. */
export function disputes(reply: string): boolean {
  return DISPUTE.test(reply.trim());
}

/** A claim that opens with the work done: "Added the deposit route", "Fixed the cache key". */
const DONE_LEAD =
  /^(?:added|fixed|implemented|created|built|wrote|removed|deleted|renamed|moved|replaced|updated|upgraded|migrated|merged|refactored|switched|installed|configured|deployed|wired|enabled|disabled|extracted|converted|introduced|documented|rewrote|reworked)\b(?!-)/i;
/** "The backend is implemented and running", "Both fixes are merged.": what it names is done, and no more is said of it. */
const DONE_STATE =
  /^[^,;:]{3,100}?\b(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:done|implemented|fixed|merged|deployed|complete|completed|added|in place|live)(?:\s*$|\s*[.!(]|\s+(?:and|in|into|to|on|at|for|with)\b)/i;
/** Words a claim needs to name what was done as well as say that it was. */
const CLAIM_WORDS_MIN = 3;
/** Not done after all: "not implemented yet", "isn't merged". */
const UNDONE = /\b(?:not|n't|never|yet)\b/i;

/**
 * A claim that says in itself what was done ("Fixed the tide cache key", "The export is merged"):
 * it opens with the work done or says that what it names is done. Only these are shown as the
 * work a report says was done; any claim closes an item it covers.
 */
export function saysWhatWasDone(claim: string): boolean {
  // "Implemented:" alone heads a list and names nothing.
  return (DONE_LEAD.test(claim) || DONE_STATE.test(claim)) && !UNDONE.test(claim) && claim.split(/\s+/).length >= CLAIM_WORDS_MIN;
}

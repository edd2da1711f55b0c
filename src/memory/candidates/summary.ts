/**
 * A compaction summary, read by its sections. Claude Code's summaries (and most agents' that follow
 * its prompt) are numbered sections: the request, key technical concepts, files, errors and fixes,
 * problem solving, all user messages, pending tasks, current work, next step. Each section says
 * something different about what lasts: concepts name the stack, errors and problem solving hold
 * the learnings, the user messages restate what the person said before the compaction, and the
 * rest is about the moment.
 */

export type SummarySection = 'request' | 'concepts' | 'files' | 'errors' | 'solving' | 'user' | 'pending' | 'current' | 'next' | 'other';

export interface SummaryItem {
  section: SummarySection;
  /** One bullet (with its wrapped lines), or one paragraph when the section has no bullets. */
  text: string;
}

const HEADINGS: readonly [RegExp, SummarySection][] = [
  [/request|intent|goal/i, 'request'],
  [/concept|stack|technolog/i, 'concepts'],
  [/files?\b|code section/i, 'files'],
  [/error|fix|issue/i, 'errors'],
  [/problem|solv|learn|finding/i, 'solving'],
  [/user message|user said|user request/i, 'user'],
  [/pending|todo|remaining|open/i, 'pending'],
  [/current/i, 'current'],
  [/next/i, 'next'],
];

/** "2. Key Technical Concepts:", "## Errors and fixes", "**Problem Solving**:" */
const HEADING = /^\s{0,3}(?:#{1,4}\s*)?(?:\d{1,2}[.)]\s*)?\**([A-Za-z][A-Za-z /&'-]{2,48}?)\**\s*:?\**\s*$/;
const BULLET = /^(\s*)(?:[-*•]|\d{1,2}[.)])\s+/;
const FENCE = /^\s*(?:```|~~~)/;
/** The summary's note that the person said nothing of an error ("User feedback: None, straightforward fix"): it says nothing. */
const NO_FEEDBACK = /^\s*\**user (?:feedback|response)\**:\s*(?:none|n\/a|no\b|nothing)/i;

function sectionOf(title: string): SummarySection {
  for (const [re, section] of HEADINGS) if (re.test(title)) return section;
  return 'other';
}

/** The part after "Summary:" / inside <summary>, when the text has one (the analysis before it is scratch work). */
function body(text: string): string {
  const tag = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(text);
  if (tag?.[1] !== undefined) return tag[1];
  const marker = /^\s*\**Summary\**:?\s*$/im.exec(text);
  return marker === null ? text : text.slice(marker.index + marker[0].length);
}

export function summaryItems(text: string): SummaryItem[] {
  const items: SummaryItem[] = [];
  let section: SummarySection = 'other';
  let current: { indent: number; lines: string[] } | undefined;
  let fenced = false;
  const flush = (): void => {
    if (current !== undefined) {
      const joined = current.lines.join(' ').replace(/\s+/g, ' ').trim();
      if (joined !== '') items.push({ section, text: joined });
    }
    current = undefined;
  };
  for (const line of body(text).split('\n')) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      flush();
      continue;
    }
    if (fenced) continue;
    const heading = HEADING.exec(line);
    if (heading?.[1] !== undefined && !BULLET.test(line.replace(/^\s*\d{1,2}[.)]/, ''))) {
      flush();
      section = sectionOf(heading[1]);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet !== null) {
      const indent = (bullet[1] ?? '').length;
      // Sub-bullets belong to their bullet: "- Error X" / "  - Fixed by Y" is one learning.
      if (current !== undefined && indent > current.indent) {
        if (!NO_FEEDBACK.test(line.replace(BULLET, ''))) current.lines.push(line.replace(BULLET, ''));
      } else {
        flush();
        current = { indent, lines: [line.replace(BULLET, '')] };
      }
      continue;
    }
    if (current === undefined) current = { indent: 0, lines: [] };
    current.lines.push(line.trim());
  }
  flush();
  return items;
}

/** Does this look like a structured compaction summary at all? */
export function isSectioned(text: string): boolean {
  return summaryItems(text).some((i) => i.section !== 'other');
}

/**
 * Every place a person states something, as units the classifier can weigh: sentences they typed
 * (or queued while the agent worked), their answers to the agent's questions, plans they approved
 * and why they rejected one, and the sections of compaction summaries that restate what was
 * decided. Tool output, injected context and a parent agent's briefs to its subagents are not units.
 */
import { inlineAnswers, numberedQuestions, answerUnits } from './answer-units.js';
import { summaryItems } from './compact-summary.js';
import { approvedNext, planUnits, PROPOSED } from './plan-units.js';
import type { ExtractMessage } from './types.js';
import { oneUnit, originOf, sentenceUnits, type Unit, type UnitSource } from './unit.js';
import { notableUrl } from './urls.js';

export { clausesOf } from './clauses.js';
export { originOf, type Unit, type UnitSource } from './unit.js';

/** A typed message this long, in this many lines, is a pasted document rather than a message. */
const DOCUMENT_CHARS = 2500;
const DOCUMENT_LINES = 25;

function summaryUnits(m: ExtractMessage, turn: number): Unit[] {
  const items = summaryItems(m.text);
  if (!items.some((i) => i.section !== 'other')) return sentenceUnits(m.text, 'summary-other', m, { turn, document: false, investigative: false });
  const out: Unit[] = [];
  for (const item of items) {
    if (item.section === 'user') {
      // "- "Work on bead X" (asking to …)": the quoted words are the person's.
      const quoted = /^["“](.+?)["”]/.exec(item.text)?.[1] ?? item.text;
      out.push(...sentenceUnits(quoted, 'typed', m, { turn, document: false, investigative: false }));
    } else {
      const u = oneUnit(item.text.replace(/\*\*/g, ''), `summary-${item.section}`, m, turn);
      if (u !== undefined) out.push(u);
    }
  }
  return out;
}

/** A brief, a spec or a README pasted in: long, or structured with headings. */
function isDocument(text: string): boolean {
  const lines = text.split('\n');
  const headings = lines.filter((l) => /^#{1,4}\s+\S/.test(l)).length;
  return (
    headings >= 2 ||
    (headings >= 1 && text.length >= 800) ||
    (text.length >= DOCUMENT_CHARS && lines.length >= DOCUMENT_LINES) ||
    (text.length >= 1500 && lines.length >= 12)
  );
}

export function unitsOf(messages: readonly ExtractMessage[]): Unit[] {
  const out: Unit[] = [];
  let turn = 0;
  let asked = new Map<number, string>();
  for (const [index, m] of messages.entries()) {
    const origin = originOf(m);
    switch (origin) {
      case 'typed':
      case 'queued':
      case 'feedback': {
        if (m.kind !== 'text') break;
        const source: UnitSource = origin === 'feedback' ? 'feedback' : 'typed';
        const link = notableUrl(m.text);
        const linkUnit = link === undefined ? undefined : oneUnit(link, 'url', m, turn);
        if (linkUnit !== undefined) out.push(linkUnit);
        const answered = inlineAnswers(m.text, asked, m, turn);
        asked = new Map();
        if (answered.length > 0) {
          out.push(...answered);
          turn++;
          break;
        }
        const units = sentenceUnits(m.text, source, m, { turn, document: isDocument(m.text), investigative: false });
        // A message that opens by asking something scopes its restrictions to that request.
        const lead = units[0];
        const investigative = lead !== undefined && /\?\s*$/.test(lead.text);
        for (const u of units) out.push({ ...u, investigative: investigative || u.investigative });
        turn++;
        break;
      }
      case 'answer':
        out.push(...answerUnits(m, turn));
        break;
      case 'plan':
        if (m.plan === 'approved') out.push(...planUnits(m.text, m, turn));
        break;
      case 'summary':
        out.push(...summaryUnits(m, turn));
        break;
      case 'instructions':
        // Injected instruction files are read by the agent every session anyway; what the assistant
        // wrote into one at the person's request is their standing rules.
        if (m.role === 'assistant') out.push(...sentenceUnits(m.text, 'instructions', m, { turn, document: false, investigative: false }));
        break;
      case 'assistant': {
        if (m.kind !== 'text') break;
        asked = numberedQuestions(m.text);
        const proposed = PROPOSED.exec(m.text)?.[1];
        if (proposed !== undefined && approvedNext(messages, index)) out.push(...planUnits(proposed, m, turn));
        else out.push(...sentenceUnits(m.text, 'assistant', m, { turn, document: false, investigative: false }));
        // "The app is live at https://x.onrender.com": the deploy address, said once it was up.
        const live = /\b(?:live|deployed|running|available|hosted)\b/i.test(m.text) ? notableUrl(m.text) : undefined;
        if (live?.startsWith('Live at') === true) {
          const u = oneUnit(live, 'url', m, turn);
          if (u !== undefined) out.push(u);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

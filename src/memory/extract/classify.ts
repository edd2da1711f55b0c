/**
 * One unit → what it is (standing instruction, preference, project fact, decision, learning,
 * procedure, or a one-off that is dropped), its scope and a score. The score adds up what the
 * sentence shows (features.ts) with a prior for where it came from: an answer the person gave or a
 * plan they approved is a decision already; a sentence they typed must show it is meant to last.
 */
import type { MemoryType } from '../../api/memory.js';
import { featuresOf, type Features } from './features.js';
import { isTimeBound } from './time-bound.js';
import { TOOL_CATEGORY } from './tool-lexicon.js';
import { countTechTerms } from './tech-terms.js';
import { hasStandingMarker } from './markers-i18n.js';
import { statesLearning } from './learnings.js';
import type { Unit } from './units.js';

export interface Classified {
  type: MemoryType;
  scope: 'user' | 'project';
  score: number;
  stable: boolean;
  features: Features;
}

/** Kept when the score reaches this. */
export const KEEP = 2.75;

const DEFERRALS =
  /^(?:not sure|you decide|up to you|whatever|no preference|doesn'?t matter|skip|other|none|n\/a|i don'?t know|idk|no idea|h+m+|u+m+|dunno|not yet)\b/i;
/** A list intro that announces rules rather than steps of the current task. */
/** A concept that names how the team works rather than what the code does. */
const PRACTICE =
  /\b(?:issue track\w*|task (?:track\w*|management)|workflow|pre-?commit|hooks?|migrations?|ci\b|code review|conventions?|release process|deploy\w*)/i;
const TASK_INTRO =
  /^(?:please\s+)?(?:create|add|make|build|write|implement|fix|update|change|do|generate|remove|delete)\b.*\b(?:these|this|following|the following)\b/i;
const RULE_INTRO = /\b(?:plan|workflow|rules?|conventions?|guidelines?|requirements?|constraints?|setup|structure|stack|architecture|preferences?)\b/i;
/** What the agent did, told in a summary's errors section: its own slips, not lessons. */
const OWN_SLIP = /^(?:added|changed|removed|created|renamed|moved|extracted|updated|fixed|forgot|used|wrote|called|deleted|replaced)\b/i;
const ACCOMPLISHED = /^(?:successfully|implemented|designed|built|created|added|extracted|used|moved|refactored|wrote|set up|completed|finished)\b/i;
const TRANSIENT_ERROR =
  /\b(?:compile error|compilation error|warning|unused|undefined (?:function|variable|module)|typo|missing (?:import|alias|module)|syntax error|expected)\b/i;

function knownTools(text: string): number {
  return new Set((text.toLowerCase().match(/[a-z][\w.+-]*/g) ?? []).filter((w) => TOOL_CATEGORY.has(w))).size;
}

function typedScore(f: Features, u: Unit): number {
  // Short is fine for a rule about style or a prohibition ("Be brief.", "Don't use any."), not otherwise.
  const short = f.style || f.negatedImperative ? f.words < 2 : f.reserves ? f.words < 2 || f.content < 1 : f.words < 3 || f.content < 2;
  if (f.question || short || f.status) return -Infinity;
  if (f.infoRequest && !f.standing && !f.condition) return -Infinity;
  let s = 0;
  if (f.hedge) s -= 3;
  if (f.purpose) s += 1.5;
  if (f.standing) s += 3;
  if (f.preference) s += 3.5;
  if (f.teamPractice) s += 1.5;
  if (f.style) s += 3;
  if (f.reserves) s += 3;
  if (f.universal) s += f.imperative || f.universalSubject ? 1.5 : 1;
  if (f.universalSubject) s += 1;
  if (f.definitional) s += 1.5;
  if (f.labelValue && f.tech > 0) s += 2.5;
  if (f.ours) s += 0.5;
  if (f.workflow && (f.imperative || f.modal || f.negatedImperative)) s += 1;
  if (f.condition) s += 1.5;
  if (f.modal) s += 1.5;
  if (f.decision) s += 1.5;
  if (f.change) s += f.imperative ? 3 : 2.5; // "move X from A to B" asks for a change of design
  if (f.constraint) s += 1;
  // "Don't use default exports": a prohibition reads as standing unless it points at the moment.
  if (f.negatedImperative) s += f.pointing === 0 && f.momentary === 0 && !u.investigative ? 3 : 1.5;
  if (f.remember) s += 3;
  if (f.procedure) s += 2.5;
  if (statesLearning(u.text)) s += 2.5;
  if (f.declarative) s += 1;
  s += Math.min(f.tech, 3) * 0.5;
  if (u.bullet && u.intro !== undefined && RULE_INTRO.test(u.intro)) s += 1.5;
  // Bullets under "Create these files:" spell out the task at hand, not how the project works.
  if (u.bullet && u.intro !== undefined && TASK_INTRO.test(u.intro)) s -= 1.5;
  s -= Math.min(f.pointing, 2) * (f.definitional ? 0 : 0.75);
  s -= Math.min(f.momentary, 3) * 1;
  if (f.narrative && !f.change) s -= 2;
  if (f.chatter && !f.imperative) s -= 1.5;
  if (f.approvalGate) s += 1.5;
  if (
    f.imperative &&
    !f.standing &&
    !f.condition &&
    !f.universal &&
    !f.negatedImperative &&
    !f.preference &&
    !f.reserves &&
    !f.change &&
    !f.decision &&
    !f.style &&
    !f.remember
  )
    s -= 1.5;
  if (u.investigative && f.imperative) s -= 2;
  if (u.document) s -= 3;
  if (f.url && f.words <= 3) s -= 2;
  if (f.words > 60) s -= 1;
  return s;
}

function summaryScore(f: Features, u: Unit): number {
  switch (u.source) {
    case 'summary-concepts':
      // The stack is named with well-known tools; a codebase's own modules are details.
      // How the team works (its tracker, its hooks, its migrations) lasts as long as the stack.
      return (
        1.5 +
        Math.min(f.tech, 3) * 0.25 +
        Math.min(knownTools(u.text), 2) * 0.75 +
        (f.constraint || f.modal || f.universal ? 1 : 0) +
        (PRACTICE.test(u.text) ? 1 : 0)
      );
    case 'summary-solving':
      // "Established that X must…" is a lesson; "Successfully extracted…" reports what was done.
      return (
        2.5 +
        Math.min(f.tech, 2) * 0.25 +
        (f.constraint || f.modal || f.standing ? 1 : 0) -
        Math.min(f.momentary, 2) * 1.5 -
        (ACCOMPLISHED.test(u.text) && !f.constraint && !f.modal ? 1.5 : 0)
      );
    case 'summary-errors': {
      let s = 1 + (f.constraint ? 2 : 0) + (f.modal ? 1 : 0) + Math.min(f.tech, 2) * 0.25;
      // "**gqc.4: Added X before Y**: …" — the agent's own slip, told after its label.
      const told = u.text.replace(/^[^:]{1,60}:\s*/, '');
      if (OWN_SLIP.test(u.text) || OWN_SLIP.test(told)) s -= 2;
      if (TRANSIENT_ERROR.test(u.text)) s -= 1.5;
      if (/^\W*current(?:ly)?\b/i.test(u.text)) s -= 2; // still open at the compaction: the next session sees it anyway
      return s;
    }
    case 'summary-request':
    case 'summary-other':
      return typedScore(f, u) - 0.5;
    default:
      return -Infinity;
  }
}

function typeOf(f: Features, u: Unit): MemoryType {
  if (u.source === 'answer' || u.source === 'plan') return 'decision';
  if (u.source === 'url') return 'fact';
  // "Remember that the API runs on 8080" keeps a fact; "remember to bump the version" is a rule.
  if (f.remember && !/\bremember to\b/i.test(u.text)) return 'fact';
  if (u.source === 'plan-body') return f.modal || f.standing || f.negatedImperative ? 'instruction' : 'decision';
  if (u.source === 'summary-errors' || u.source === 'summary-solving' || u.source === 'assistant') return 'learning';
  if (u.source === 'summary-concepts') return 'fact';
  if (!u.sentence.english) return 'instruction';
  if (f.preference) return 'preference';
  if (f.decision || f.change) return 'decision';
  if (f.imperative || f.standing || f.modal || f.reserves || f.negatedImperative) return 'instruction';
  if (f.procedure || (u.bullet && u.intro !== undefined && /^(?:to|for|how to)\b/i.test(u.intro))) return 'procedure';
  if (statesLearning(u.text)) return 'learning';
  return 'fact';
}

/**
 * User scope only when the person spoke about themselves in general ("I prefer small commits", "I
 * always want…"): first person, a taste or a standing habit, and nothing naming this project.
 */
function scopeOf(f: Features, u: Unit): 'user' | 'project' {
  if (u.source !== 'typed' && u.source !== 'feedback') return 'project';
  const first = u.sentence.tokens.find((t) => t.pos === 'PRON');
  const personal = (first?.lower === 'i' && (f.preference || f.standing)) || f.style;
  // Naming a language or a common tool is still general ("I never use semicolons in JavaScript");
  // a path, an identifier or a code span belongs to a codebase.
  const specific = countTechTerms(u.text.replace(/[A-Za-z][\w.+#-]*/g, (w) => (TOOL_CATEGORY.has(w.toLowerCase().replace(/[.+-]+$/, '')) ? '' : w))) > 0;
  return personal && !specific && f.pointing === 0 && !/\b(?:we|our|here|this (?:repo|project|app))\b/i.test(u.text) ? 'user' : 'project';
}

export function classify(u: Unit): Classified | undefined {
  const f = featuresOf(u.sentence);
  let score: number;
  switch (u.source) {
    case 'typed':
      // Without an English analysis only an explicit standing marker ("以后", "vždy", "siempre") counts.
      score = u.sentence.english ? typedScore(f, u) : hasStandingMarker(u.text) && !/[?？]\s*$/.test(u.text) ? KEEP : -Infinity;
      break;
    case 'feedback':
      // Why the person turned a plan or an edit down: a correction they want kept.
      score = u.sentence.english ? typedScore(f, u) + 1 : -Infinity;
      break;
    case 'answer': {
      const answer = u.text.slice(u.text.lastIndexOf('→') + 1).trim();
      score = answer === '' || DEFERRALS.test(answer) ? -Infinity : 3.5;
      break;
    }
    case 'plan':
    case 'url':
      score = 3.5;
      break;
    case 'plan-body':
      // A statement inside a plan the person approved: they agreed to it, but it must still read as a rule.
      score =
        u.sentence.english && (f.modal || f.standing || f.negatedImperative || f.constraint || /\b(?:no|not|only)\b/i.test(u.text))
          ? typedScore(f, u) + 1 + (u.lead === true ? 1 : 0)
          : -Infinity;
      break;
    case 'instructions':
      score = typedScore(f, u) + 1;
      break;
    case 'assistant':
      score = -Infinity; // learnings from the assistant come through learnings.ts, verified
      break;
    default:
      score = summaryScore(f, u);
  }
  if (!(score >= KEEP)) return undefined;
  const timeBound = isTimeBound(u.text);
  return { type: typeOf(f, u), scope: scopeOf(f, u), score, stable: !timeBound, features: f };
}

/**
 * A memory's identity: what it is about (subject), which property of it (attribute), what that
 * property is (value, with its polarity). Read from the language analysis plus a small synonym
 * table, never from word overlap: "the frontend app deploys to staging" and "the backend app deploys
 * to staging" share all but one word and are two slots; "acme-api uses pnpm as its package manager"
 * and "package manager for acme-api: pnpm" share few and are one.
 *
 * Same slot, same value: the same fact (reinforce). Same slot, another value: the fact changed
 * (supersede). Different slots: different facts, however alike they read.
 */
import type { Slot } from '../../api/memory.js';
import { analyze, type Token } from '../nlp/index.js';
import { commandAt } from '../nlp/mood.js';
import { AMBIGUOUS_TOOLS, TOOL_CATEGORY } from '../nlp/tool-lexicon.js';
import { tidy } from '../nlp/tidy.js';

/** Words for the project itself: a statement about "the repo" is about this namespace's project. */
const PROJECT = new Set(['project', 'repo', 'repository', 'codebase', 'app', 'application', 'code', 'we', 'our', 'us', 'here', 'this']);
/** One spelling per concept. */
const SYNONYMS: Record<string, string> = {
  db: 'database',
  prod: 'production',
  stg: 'staging',
  k8s: 'kubernetes',
  postgresql: 'postgres',
  pg: 'postgres',
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  repo: 'repository',
  env: 'environment',
  config: 'configuration',
  cfg: 'configuration',
  deps: 'dependency',
  dependencies: 'dependency',
  pkg: 'package',
  pm: 'package manager',
  ci: 'ci',
  gh: 'github',
  nodejs: 'node',
  'next.js': 'next',
  nextjs: 'next',
  tailwindcss: 'tailwind',
  golang: 'go',
  mongo: 'mongodb',
};
/** Words that make the property concrete but are not part of it. */
const NEGATORS = new Set(['not', "n't", 'never', 'no', 'without', 'nothing', 'none', 'neither', 'nor', 'nobody', 'noone']);
const POSITIVE_MARKERS = new Set(['always', 'must', 'should']);
const CHANGE_OLD = new Set(['instead', 'rather', 'than', 'over', 'from', 'not']);
const KEEP_POS = new Set(['NOUN', 'PROPN', 'NUM', 'ADJ', 'VERB', 'X']);

const canon = (w: string): string => SYNONYMS[w] ?? w;

function words(tokens: Token[]): string[] {
  return tokens.filter((t) => KEEP_POS.has(t.pos) && !t.stop && t.kind !== 'punctuation').map((t) => canon(t.lemma.replace(/^`|`$/g, '')));
}

/** After a tool was named, these mark the next as the one left behind: "use pnpm, never npm". */
const CONTRAST_OLD = new Set(['never', 'no', 'not']);

/** Tools named outside "instead of X" / "rather than X" / "not X": the current choice, and whether it is refused ("don't use npm"). */
function currentTools(tokens: Token[]): { tool: string; category: string; refused: boolean }[] {
  const out: { tool: string; category: string; refused: boolean }[] = [];
  let old = false;
  for (const [i, t] of tokens.entries()) {
    if (t.kind === 'punctuation') old = false;
    if (CHANGE_OLD.has(t.lower) || (out.length > 0 && CONTRAST_OLD.has(t.lower))) old = true;
    // A code span names its command's tools: "`ruff check`" is ruff.
    const span = /^`.*`$/.test(t.text);
    const inside = span ? t.lower.slice(1, -1).split(/\s+/) : [t.lower];
    let named = false;
    for (const [k, word] of inside.entries()) {
      const name = canon(word);
      const category = TOOL_CATEGORY.get(name);
      // "`npm test`", "`cargo clippy`": the runner runs something else; the command is about that.
      if (span && category === 'package manager' && k < inside.length - 1) continue;
      if (category === undefined || (!span && AMBIGUOUS_TOOLS.has(name) && t.text === t.lower && t.pos !== 'PROPN')) continue;
      const refused = t.negated || tokens.slice(Math.max(0, i - 3), i).some((x) => NEGATORS.has(x.lower) || x.lemma === 'not');
      if (!old) out.push({ tool: name, category, refused });
      named = true;
      if (span) break; // the command's first known tool says what it is
    }
    // "instead of pnpm", "from jest to vitest": the marker covers the next tool named, then ends.
    if (named) old = false;
  }
  return out;
}

/** The subject words: before the first verb of a statement, or the object of a command. */
function split(tokens: Token[]): { subject: Token[]; predicate: Token[]; verb?: Token } {
  const body = tokens.filter((t) => t.kind !== 'punctuation' || t.text === ':');
  const colon = body.findIndex((t) => t.text === ':');
  // "Package manager for acme-api: pnpm" — a label and its value.
  if (colon > 0 && colon < body.length - 1 && !body.slice(0, colon).some((t) => t.pos === 'VERB' || t.pos === 'AUX')) {
    return { subject: body.slice(0, colon), predicate: body.slice(colon + 1) };
  }
  // The main verb: "don't commit" is about committing, "is" only when there is no other.
  const main = body.findIndex((t) => t.pos === 'VERB');
  const v =
    main >= 0 && !body.slice(0, main).some((t) => t.pos === 'AUX' && t.lemma === 'be') ? main : body.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (v < 0) return { subject: [], predicate: body };
  return { subject: body.slice(0, v), predicate: body.slice(v + 1), verb: body[v] as Token };
}

function polarity(tokens: Token[]): '+' | '-' {
  return tokens.some((t) => NEGATORS.has(t.lower) || t.negated) ? '-' : '+';
}

/** What a subject phrase names, with "the repo"/"our app"/nothing meaning the project itself. */
function subjectName(subject: Token[]): string {
  const w = words(subject).filter((x) => !PROJECT.has(x));
  return w.length === 0 ? 'project' : w.join(' ');
}

/** Where a statement's main clause ends: what follows ("…; never disable the rule") qualifies it. */
const CLAUSE_END = new Set([';', '—', '–', 'but', 'except', 'unless']);

/** The polarity of the main clause: a "never" in a clause after it does not turn the whole rule round. */
function mainPolarity(tokens: Token[]): '+' | '-' {
  const end = tokens.findIndex((t, i) => i > 0 && CLAUSE_END.has(t.lower));
  return polarity(end < 0 ? tokens : tokens.slice(0, end));
}

export function slotOf(text: string): Slot | undefined {
  // An answer states its value after the arrow; the question only says what it is about.
  const arrow = text.lastIndexOf('→');
  if (arrow >= 0) text = text.slice(arrow + 1);
  // Fillers ("Note:", "FYI,", a reply's "No,") and asides in parentheses do not change what a statement is about.
  const core = tidy(text)
    .text.replace(/\s*\([^()]*\)/g, '')
    .trim();
  const sentences = analyze(core);
  const tokens = sentences.flatMap((s) => s.tokens);
  if (tokens.length === 0 || sentences.some((s) => !s.english)) return undefined;
  // A command's verb the model read as a noun ("Use yarn…") is the verb, not the subject.
  const cmd = commandAt(tokens, core);
  if (cmd >= 0 && tokens[cmd]?.pos !== 'VERB') tokens[cmd] = { ...(tokens[cmd] as Token), pos: 'VERB', lemma: (tokens[cmd] as Token).lower };
  const { subject, predicate, verb } = split(tokens);
  const tools = currentTools(tokens);
  const sign = tools.length > 0 ? (tools.every((t) => t.refused) ? '-' : '+') : mainPolarity(tokens);
  // A tool of a known kind: the slot is that kind, for whatever else the sentence names.
  const first = tools[0];
  if (first !== undefined && tools.every((t) => t.category === first.category)) {
    const rest = words(tokens).filter((w) => !TOOL_CATEGORY.has(w) && !first.category.split(' ').includes(w) && !PROJECT.has(w));
    // Numbers are values ("port 5432"), not names; identifiers and proper names say what it is about.
    const number = (w: string) => /^\d+(?:\.\d+)*$/.test(w);
    // The subject phrase's own nouns name the part it is about: "the staging database runs Postgres"
    // and "Redis is the cache" are two parts with a tool each, not one value replacing another.
    const part = words(subject).filter((w) => !TOOL_CATEGORY.has(w) && !first.category.split(' ').includes(w) && !PROJECT.has(w) && !number(w));
    const named = [
      ...new Set([
        ...part,
        ...rest.filter((w) => !number(w) && (/[-_.\d]/.test(w) || tokens.some((t) => t.pos === 'PROPN' && canon(t.lemma) === w && !TOOL_CATEGORY.has(w)))),
      ]),
    ];
    const values = [...new Set(tools.map((t) => t.tool))].sort().concat(rest.filter(number));
    return { subject: named.length > 0 ? named.join(' ') : 'project', attribute: first.category, value: `${sign}${values.join(' ')}` };
  }
  const verbLemma = verb === undefined ? undefined : canon(verb.lemma);
  const subjectWords = words(subject).filter((w) => !POSITIVE_MARKERS.has(w));
  // A command ("always deploy the frontend to staging"): the agent is told to do something to an object.
  if (subjectWords.length === 0 && verbLemma !== undefined && verbLemma !== 'be') {
    const object: Token[] = [];
    const rest: Token[] = [];
    let inObject = true;
    for (const t of predicate) {
      if (inObject && (t.pos === 'ADP' || t.pos === 'SCONJ' || t.pos === 'VERB' || t.pos === 'PART')) inObject = false;
      (inObject ? object : rest).push(t);
    }
    // What to do, to what and where is the slot; whether to do it is the value. So "never push to
    // main" and "always push to main" contradict, while rules for other targets stand side by side.
    // In any order: "run the linter before committing" and "before committing, run the linter" are one rule.
    const attribute = [verbLemma, ...words(object), ...words(rest)].sort().join(' ');
    return { subject: 'agent', attribute, value: sign };
  }
  // "X is Y", "our ui is light mode", "X uses Y": the subject's property is the predicate.
  const name = subjectName(subject);
  const attr = verbLemma === undefined || verbLemma === 'be' || verbLemma === 'have' ? '' : verbLemma;
  const value = words(predicate).join(' ');
  if (name === 'project' && attr === '' && value === '') return undefined;
  return { subject: name, attribute: attr === '' ? 'is' : attr, value: `${sign}${value}` };
}

export const slotKey = (s: Slot): string => `${s.subject}\u0000${s.attribute}`;
export const sameValue = (a: Slot, b: Slot): boolean => a.value === b.value;

/** Values that differ only in standalone numbers ("port 5432" / "port 5433"): a quantity that changed. */
export function numberChanged(a: Slot, b: Slot): boolean {
  if (a.value === b.value) return false;
  const number = /^\d+(?:\.\d+)*$/;
  const x = a.value.split(' ');
  const y = b.value.split(' ');
  return (
    x.length === y.length &&
    x.some((w) => number.test(w.replace(/^[+-]/, ''))) &&
    x.every((w, i) => w === y[i] || (number.test(w.replace(/^[+-]/, '')) && number.test((y[i] ?? '').replace(/^[+-]/, ''))))
  );
}

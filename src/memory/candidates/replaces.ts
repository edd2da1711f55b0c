/**
 * The old thing in an explicit change ("switched from jest to vitest" → jest), so the store can
 * supersede older memories about it. Only change phrases count: "prefer X over Y" is a taste, not
 * a replacement.
 */

const STOP = String.raw`[,.;:!?()]|\s(?:and|but|because|since|so|for|in|on|at|as|when|which|now|with|here|there|then|anymore|any more|any longer|to|from|by|after|before|because|everywhere|going forward)\b`;
const PHRASE = String.raw`(?<old>.+?)(?=${STOP}|$)`;

/** Each names the old thing in the `old` group. */
const CHANGES: readonly RegExp[] = [
  new RegExp(String.raw`\binstead of\s+${PHRASE}`, 'i'),
  new RegExp(String.raw`\brather than\s+${PHRASE}`, 'i'),
  /\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing)|mov(?:e|ed|ing)|chang(?:e|ed|ing)|went|transition(?:ed|ing)?|port(?:ed|ing)?|convert(?:ed|ing)?|upgrad(?:e|ed|ing)|downgrad(?:e|ed|ing))\s+(?:\S+\s+){0,3}?from\s+(?<old>.+?)\s+(?:over\s+)?(?:to|onto)\b/i,
  new RegExp(
    String.raw`\bno longer\s+(?:use[sd]?|using|run[s]?|running|need[s]?|support[s]?|depend[s]? on|deploy[s]? (?:to|on)|on|rel(?:y|ies) on)\s+${PHRASE}`,
    'i',
  ),
  /\b(?:don't|do not|doesn't|does not|won't|will not)\s+(?:use|need|run on|run|call|install|deploy to|rely on)\s+(?<old>.+?)\s+any ?(?:more|longer)\b/i,
  /\breplac(?:e|ed|ing)\s+(?<old>.+?)\s+(?:with|by)\b/i,
  /\b(?:dropp(?:ed|ing)|ditch(?:ed|ing)|remov(?:ed|ing)|abandon(?:ed|ing)|got rid of)\s+(?<old>.+?)\s+(?:in favou?r of|for)\b/i,
  // "use pnpm, not npm" / "going with vitest, not jest": the old one closes the sentence.
  /\b(?:use|using|go with|going with|went with|stick with|pick|chose)\s+[^,;]+?,?\s+not\s+(?<old>[\w`'".@/ -]+?)[.!]?$/i,
];

/** "X is replaced by Y" names X before the verb, so it is read from the right. */
const REPLACED_BY =
  /(?<old>(?:[\w`'".@/-]+\s+){0,4}?[\w`'".@/-]+)\s+(?:is|are|was|were|has been|have been|got|gets|will be)\s+(?:now\s+)?(?:being\s+)?replaced\s+(?:by|with)\b/i;

const LEADING = /^(?:the|a|an|our|my|their|its|using|old|previous|legacy|existing|current|plain|of)\s+/i;
/** Words that stop a noun phrase from the left ("from now on npm" → "npm"). */
const CLAUSE = /.*\b(?:on|in|that|now|so|and|but|because|then|we|i|you|they|it|finally|also|already|just)\s+/i;
const DEICTIC = /^(?:it|this|that|these|those|them|one|something|anything|things?)$/i;
const MAX_WORDS = 4;

function tidyOld(raw: string, fromLeft: boolean): string | undefined {
  let phrase = raw.replace(/[`"]/g, '').trim();
  if (fromLeft) phrase = phrase.replace(CLAUSE, '');
  for (let prev = ''; prev !== phrase;) {
    prev = phrase;
    phrase = phrase.replace(LEADING, '');
  }
  const words = phrase.split(/\s+/).filter((w) => w.length > 0);
  const kept = (fromLeft ? words.slice(-MAX_WORDS) : words.slice(0, MAX_WORDS)).join(' ').replace(/^'+|'+$/g, '');
  if (kept.length === 0 || kept.length > 60 || DEICTIC.test(kept)) return undefined;
  return kept;
}

/** Every change phrase has one of these words; most sentences have none, and skip the rest. */
const HINT = /\b(?:instead|rather|from|longer|any ?more|replac\w*|favou?r|not)\b/i;

export function findReplaced(sentence: string): string[] | undefined {
  if (!HINT.test(sentence)) return undefined;
  const found = new Map<string, string>();
  const add = (old: string | undefined, fromLeft: boolean): void => {
    const kept = old === undefined ? undefined : tidyOld(old, fromLeft);
    if (kept !== undefined && !found.has(kept.toLowerCase())) found.set(kept.toLowerCase(), kept);
  };
  for (const re of CHANGES) add(re.exec(sentence)?.groups?.old, false);
  if (/replaced/i.test(sentence)) add(REPLACED_BY.exec(sentence)?.groups?.old, true);
  return found.size > 0 ? [...found.values()] : undefined;
}

/**
 * Why wink-nlp: the language libraries side by side on what the extractor needs from them — is a
 * sentence a command (imperative mood), is it negated — over 40 sentences written and labelled for
 * this bench, and how long each takes per sentence. compromise is the peer (a devDependency, loaded
 * only here). The extractor reads wink's tags with a small correction (sentence-initial verbs the
 * lite model tags as nouns); that row is the one the extractor gets.
 */
import { performance } from 'node:perf_hooks';
import nlp from 'compromise';
import { featuresOf } from '../src/memory/extract/features.js';
import { analyze } from '../src/memory/nlp/index.js';
import { wink } from '../src/memory/nlp/model.js';
import { atLeast, info, type Bench, type Figure } from './lib/types.js';

/** [sentence, a command?, negated?] */
const SET: [string, boolean, boolean][] = [
  ['Use pnpm in this repo.', true, false],
  ['Run the tests before pushing.', true, false],
  ['Keep answers short.', true, false],
  ['Commit each fix separately.', true, false],
  ['Deploy the frontend to staging.', true, false],
  ['Format the code with prettier.', true, false],
  ['Rebase on main before opening a PR.', true, false],
  ['Ask me before you delete files.', true, false],
  ['Stick with SQLite for now.', true, false],
  ['Write the tests first.', true, false],
  ['Mention the library in the README.', true, false],
  ['Move deduplication to the whole set.', true, false],
  ["Don't commit the env file.", true, true],
  ['Never push to main directly.', true, true],
  ['Do not run migrations on Fridays.', true, true],
  ["Don't use default exports.", true, true],
  ['Avoid adding dependencies.', true, false],
  ['Always lint before committing.', true, false],
  ['Please use British English.', true, false],
  ['Be concise.', true, false],
  ['We use pnpm here.', false, false],
  ['The API listens on port 8080.', false, false],
  ['The stack is Tauri and Vue.', false, false],
  ['It is an Elixir app on Ash.', false, false],
  ['I prefer small commits.', false, false],
  ['The tests are failing on CI.', false, false],
  ["The build doesn't work.", false, true],
  ['We deploy on Netlify.', false, false],
  ['Our UI is light mode.', false, false],
  ['The config lives in config/app.yaml.', false, false],
  ['I renamed the folder yesterday.', false, false],
  ['The worker never retries.', false, true],
  ['This is not a development project.', false, true],
  ['Postgres runs on port 5432.', false, false],
  ['We no longer use Redis.', false, true],
  ['I will handle the frontend.', false, false],
  ['Tests live in the test folder.', false, false],
  ['The deploy target is Render.', false, false],
  ['Nobody pushes to the release branch.', false, false],
  ['Credo is strict here.', false, false],
];

interface Reader {
  name: string;
  command(s: string): boolean;
  negated(s: string): boolean;
}

const LEAD = new Set(['please', 'always', 'never', 'just', 'do', "n't", 'not']);

const winkRaw: Reader = {
  name: 'wink-nlp (its tags as they come)',
  command(s) {
    const { nlp: w, its } = wink();
    const doc = w.readDoc(s);
    const pos = doc.tokens().out(its.pos) as string[];
    const low = (doc.tokens().out() as string[]).map((t) => t.toLowerCase());
    let i = 0;
    while (i < low.length && (LEAD.has(low[i] ?? '') || pos[i] === 'ADV')) i++;
    return pos[i] === 'VERB' || (low[i] === 'be' && pos[i + 1] === 'ADJ');
  },
  negated(s) {
    const { nlp: w, its } = wink();
    return (w.readDoc(s).tokens().out(its.negationFlag) as boolean[]).some(Boolean);
  },
};

const winkExtractor: Reader = {
  name: 'wink-nlp as the extractor reads it',
  command: (s) => featuresOf(analyze(s)[0] ?? { text: s, tokens: [], english: true }).imperative,
  negated: (s) => (analyze(s)[0]?.tokens ?? []).some((t) => t.negated),
};

const compromise: Reader = {
  name: 'compromise',
  command: (s) => {
    const d = nlp(s);
    return d.has('^(please|always|never|just)? (do not|#Negative)? #Infinitive') || d.has('^#Imperative');
  },
  negated: (s) => nlp(s).has('#Negative'),
};

export const nlpChoiceBench: Bench = {
  name: 'nlp-choice',
  title: 'wink-nlp beside compromise on commands and negation, and their speed',
  budgetSeconds: 60,
  async run(o, say) {
    const figures: Figure[] = [];
    const rounds = o.quick ? 5 : 50;
    for (const r of [winkRaw, winkExtractor, compromise]) {
      const commands = SET.filter(([s, c]) => r.command(s) === c).length;
      const negations = SET.filter(([s, , n]) => r.negated(s) === n).length;
      const t0 = performance.now();
      for (let i = 0; i < rounds; i++) for (const [s] of SET) r.command(s);
      const ms = (performance.now() - t0) / (rounds * SET.length);
      say(`${r.name}: commands ${commands}/${SET.length}, negation ${negations}/${SET.length}, ${ms.toFixed(3)} ms a sentence`);
      figures.push(info(`${r.name}: commands right`, commands / SET.length, 'ratio'));
      figures.push(info(`${r.name}: ms a sentence`, ms, 'ms'));
      if (r === winkExtractor) figures.push(atLeast('the extractor: commands right', commands / SET.length, 'ratio', 0.95));
    }
    return figures;
  },
};

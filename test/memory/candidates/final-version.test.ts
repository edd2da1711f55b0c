/**
 * What the session settled, at candidate level: answers kept with their question (and unrelated
 * replies not), corrections and slips keeping only the final version, fixed trouble left out, one
 * statement once, and rules in other languages kept whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answersQuestion } from '../../../src/memory/candidates/answers.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';
import { ClaudeSession } from '../../helpers/session-lines.js';
import { candidatesOf, texts } from './helpers.js';

const tmp = tempDirsPerTest(afterEach, 'ns-cand-final-');
let n = 0;
const session = (cwd: string) => new ClaudeSession({ sessionId: `final-${n++}`, cwd });

describe("answers to the agent's question", () => {
  it.each([
    ['Which cache should the session store use, Redis or ristretto?', 'ristretto, no Redis'],
    ['Should I use option (a) or (b)?', 'b. rename it'],
    ['Do you want the per-account breakdown in the PDF too?', 'yes, with subtotals per account'],
    ['How many retry attempts?', '3 is fine'],
  ])('a reply of the answer\'s shape answers "%s"', (q, reply) => {
    expect(answersQuestion(q, reply)).toBe(true);
  });

  it.each([
    ['Should the PDF include the per-account breakdown, or just the totals?', 'unrelated: staging moved to Fly.io last week'],
    ['Want me to delete the legacy calendar view too?', 'the deploy goes to Railway from main only'],
  ])('a reply on another topic does not answer "%s"', (q, reply) => {
    expect(answersQuestion(q, reply)).toBe(false);
  });

  it('is kept with the question it answers; a new topic after a question stands on its own', async () => {
    const answered = session('/home/ana/src/api')
      .user('Add a session cache in front of the user lookup.')
      .assistant('Which cache should the session store use, Redis or ristretto?')
      .user('ristretto, no Redis');
    expect(texts(await candidatesOf(tmp(), answered))).toContain('Which cache should the session store use, Redis or ristretto? → ristretto, no Redis');
    const unrelated = session('/home/ana/src/books')
      .user('Export the ledger as PDF.')
      .assistant('Should the PDF include the per-account breakdown?')
      .user('other thing: the deploy goes to Railway from main only');
    const all = await candidatesOf(tmp(), unrelated);
    expect(all.some((c) => c.source === 'answer')).toBe(false);
    expect(all.find((c) => /Railway/.test(c.text))?.text).toBe('other thing: the deploy goes to Railway from main only');
  });
});

describe('corrections and slips keep the final version', () => {
  const cases: [string, string[], RegExp, RegExp][] = [
    ['en, a slip a message later', ['The orders database listens on port 5432.', 'sorry, I meant port 5433'], /5432/, /5433/],
    [
      'en, back to the old way',
      ['Split the router into one file per resource.', 'actually, keep the old single-file router after all'],
      /one file per resource/,
      /single-file/,
    ],
    ['de, staging-2 not staging', ['Erst mal alles nach staging deployen.', 'nein warte, nimm staging-2, nicht staging.'], /^Erst mal/, /staging-2/],
    [
      'es, me he liado',
      ['Las fechas de la plantilla muéstralas en UTC.', 'uy, me he liado: en la interfaz van en hora de Madrid, UTC solo en la base de datos.'],
      /plantilla/,
      /Madrid/,
    ],
    ['zh, 算了', ['主指标就用 F1 吧。', '算了，主指标换成 PR-AUC。'], /F1/, /PR-AUC/],
    ['en, another number', ['Cap the upload retries at 3.', 'no, make it 6 after all.'], /at 3/, /make it 6/],
    ['es, otro número', ['Pon el timeout del cliente HTTP en 10 segundos.', 'al final déjalo en 30, que el proveedor es lento.'], /10 segundos/, /en 30/],
  ];
  it.each(cases)('%s', async (_, said, gone, stays) => {
    const s = session('/home/ana/src/svc');
    for (const t of said) s.user(t).assistant('OK.');
    const all = texts(await candidatesOf(tmp(), s));
    expect(
      all.some((t) => gone.test(t)),
      all.join('\n'),
    ).toBe(false);
    expect(
      all.some((t) => stays.test(t)),
      all.join('\n'),
    ).toBe(true);
  });

  it('an apology about something else takes nothing back', async () => {
    const s = session('/home/ana/src/svc')
      .user('Migrations live in db/migrate and are never edited once merged.')
      .assistant('OK.')
      .user('sorry, one more thing: add a CHANGELOG entry for each release');
    const all = texts(await candidatesOf(tmp(), s));
    expect(all.some((t) => /never edited once merged/.test(t))).toBe(true);
  });

  it('trouble the session fixed is not a current problem; a lesson said as a rule stays', async () => {
    const cwd = '/home/ana/src/cal';
    const fixed = session(cwd)
      .user('The calendar view shows Sunday events on Monday, it is a bug in week().')
      .assistant('week() subtracts isoweekday(); switching to weekday().')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/cal/views.py`, old_string: 'isoweekday()', new_string: 'weekday()' })
      .toolResult('e1', 'The file has been updated successfully.')
      .toolUse('b1', 'Bash', { command: 'pytest -q' })
      .toolResult('b1', '12 passed in 0.41s')
      .user('Never swallow errors in the sync worker, log them with the event id.');
    const all = texts(await candidatesOf(tmp(), fixed));
    expect(all.some((t) => /Sunday events/.test(t))).toBe(false);
    expect(all.some((t) => /Never swallow errors/.test(t))).toBe(true);
    const open = session(cwd).user('The calendar view shows Sunday events on Monday, it is a bug in week().').assistant('I will look into it.');
    expect(texts(await candidatesOf(tmp(), open)).some((t) => /Sunday events/.test(t))).toBe(true);
  });
});

describe('one statement once', () => {
  it("a restatement and the summary bullet holding it collapse into the person's typed words", async () => {
    const s = session('/home/ana/src/relay')
      .user('When a subscriber is slow, drop the oldest messages and never block the producer.')
      .assistant('Using a ring buffer per subscriber.')
      .compactSummary(
        'This session is being continued from a previous conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - Slow subscribers: drop the oldest messages, never block the producer (ring buffer per subscriber)\n2. Key Technical Concepts:\n   - Go channels and a ring buffer',
      )
      .user('again: slow subscriber means drop the oldest messages, never block the producer');
    const all = await candidatesOf(tmp(), s);
    const same = all.filter((c) => /oldest messages/.test(c.text));
    expect(same.map((c) => [c.source, c.text])).toEqual([['typed', 'When a subscriber is slow, drop the oldest messages and never block the producer.']]);
    expect(same[0]?.repeats).toBeGreaterThan(0);
  });

  it.each([
    ['Always deploy the frontend app to the staging cluster in the eu region.', 'Always deploy the backend app to the staging cluster in the eu region.'],
    ['Run the nightly export job against the replica database.', 'Do not run the nightly export job against the replica database during business hours.'],
  ])('one word swapped or a negation makes another statement: %s', async (a, b) => {
    const s = session('/home/ana/src/ops').user(`${a} ${b}`).assistant('OK.');
    expect(texts(await candidatesOf(tmp(), s)).filter((t) => /app to the staging|nightly export/.test(t))).toHaveLength(2);
  });

  it('statements with different numbers stay apart', async () => {
    const s = session('/home/ana/src/relay')
      .user('Buffer 1024 messages per client connection.')
      .assistant('OK.')
      .user('Buffer 256 messages per client connection for the admin socket.');
    expect(texts(await candidatesOf(tmp(), s)).filter((t) => /Buffer/.test(t))).toHaveLength(2);
  });
});

describe('rules in other languages stay whole', () => {
  it.each([
    'Quand tu modifies un schéma Ecto, génère toujours la migration avec mix ecto.gen.migration et ne touche jamais aux anciennes migrations, même pour corriger une faute de frappe, parce que la prod les a déjà jouées.',
    'Y una cosa para siempre: cuando cambies algo en queries/*.sql, regenera con `sqlc generate` y mete el código generado en el mismo commit — si no, el CI se queja y nadie sabe por qué.',
    'Wenn ein Modul von mehr als drei Umgebungen benutzt wird, gehört es nach modules/shared; dort wird es versioniert, und jede Umgebung pinnt die Version, die sie gerade benutzt.',
  ])('%s', async (rule) => {
    const all = texts(await candidatesOf(tmp(), session('/home/ana/src/x').user(rule).assistant('OK.')));
    expect(all).toEqual([rule]);
  });
});

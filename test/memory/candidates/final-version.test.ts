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
    ['Do you want the archived customers in the CSV too?', 'yes, flagged in their own column'],
    ['How many worker threads?', '4 should do'],
  ])('a reply of the answer\'s shape answers "%s"', (q, reply) => {
    expect(answersQuestion(q, reply)).toBe(true);
  });

  it.each([
    ['Should the CSV export include archived customers, or only active ones?', 'unrelated: staging moved to Fly.io last week'],
    ['Want me to remove the old v1 webhook handler too?', 'the docs site builds with Astro from the main branch only'],
  ])('a reply on another topic does not answer "%s"', (q, reply) => {
    expect(answersQuestion(q, reply)).toBe(false);
  });

  it("a summary's note of a question never answered is no candidate", async () => {
    const s = session('/home/ana/src/crm')
      .user('Export the customers as CSV.')
      .compactSummary(
        'This session is being continued from a previous conversation.\n\nSummary:\n6. Pending Tasks:\n   - Open question: include archived customers in the CSV (not yet answered)\n   - Add the export button to the customers page',
      );
    const all = texts(await candidatesOf(tmp(), s));
    expect(all.some((t) => /archived customers/.test(t))).toBe(false);
    expect(all.some((t) => /export button/.test(t))).toBe(true);
  });

  it('is kept with the question it answers; a new topic after a question stands on its own', async () => {
    const answered = session('/home/ana/src/api')
      .user('Add a session cache in front of the user lookup.')
      .assistant('Which cache should the session store use, Redis or ristretto?')
      .user('ristretto, no Redis');
    expect(texts(await candidatesOf(tmp(), answered))).toContain('Which cache should the session store use, Redis or ristretto? → ristretto, no Redis');
    const unrelated = session('/home/ana/src/crm')
      .user('Export the customers as CSV.')
      .assistant('Should the CSV include archived customers?')
      .user('other thing: the docs site builds with Astro from main only');
    const all = await candidatesOf(tmp(), unrelated);
    expect(all.some((c) => c.source === 'answer')).toBe(false);
    expect(all.find((c) => /Astro/.test(c.text))?.text).toBe('other thing: the docs site builds with Astro from main only');
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
    ['en, another number', ['Cap the upload retries at 3.', 'no, make it 6 after all.'], /at 3/, /make it 6/],
    [
      'de, testing-eu not testing',
      ['Spiel das Update erst mal auf testing aus.', 'nein warte, nimm testing-eu, nicht testing.'],
      /^Spiel das Update/,
      /testing-eu/,
    ],
    [
      'es, me he liado',
      ['Guarda los precios en euros con dos decimales.', 'uy, me he liado: los precios van en céntimos, enteros, nunca con decimales.'],
      /dos decimales/,
      /céntimos/,
    ],
    ['es, otro número', ['Pon el timeout del cliente HTTP en 10 segundos.', 'al final déjalo en 30, que el proveedor es lento.'], /10 segundos/, /en 30/],
    ['zh, 算了', ['日志级别就用 debug 吧。', '算了，日志级别改成 info。'], /debug/, /改成 info/],
    [
      'en, in the same sentence',
      ['Session tokens expire after 24 hours — sorry, I meant 12 hours, not 24.'],
      /24 hours/,
      /^Session tokens expire after 12 hours\.$/,
    ],
    [
      'de, im selben Satz',
      ['Wir deployen zuerst auf staging, Entschuldigung, ich meinte staging-eu, nicht staging.'],
      /auf staging(?!-eu)/,
      /zuerst auf staging-eu\.$/,
    ],
    ['zh, 同一句', ['缓存过期时间是60秒——不对，我是说90秒。'], /60秒/, /过期时间是90秒/],
    [
      'en, "scratch that" in the same sentence',
      ['The worker pool has 8 threads, scratch that, 12 threads.'],
      /8 threads/,
      /^The worker pool has 12 threads\.$/,
    ],
    [
      'en, "no wait" in the same sentence',
      ['Point the lookup at the live Open Food Facts API, no wait, use the staging mirror off-staging.example until the tests pass.'],
      /live Open Food Facts/,
      /^use the staging mirror off-staging\.example until the tests pass\.$/,
    ],
    [
      'en, the fix said whole',
      ['The importer reads the CSV files from the inbox folder; I meant to say the importer reads them from S3 under imports/.'],
      /inbox folder/,
      /^The importer reads them from S3/i,
    ],
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

  it("a compaction summary's restatement of the slip goes with it", async () => {
    const s = session('/home/ana/src/pool')
      .user('Keep 200 connections in the pool per service.')
      .assistant('OK.')
      .compactSummary(
        'This session is being continued from a previous conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - Pool size 200 connections per service',
      )
      .user('oops — meant 200 per host, not per service.');
    const all = texts(await candidatesOf(tmp(), s));
    expect(
      all.filter((t) => /^Keep 200|Pool size 200/.test(t)),
      all.join('\n'),
    ).toEqual([]);
    expect(all.some((t) => /per host/.test(t))).toBe(true);
  });

  it("a compaction summary quoting the person's slip corrected in the same sentence quotes it corrected", async () => {
    const s = session('/home/ana/src/auth').compactSummary(
      'This session is being continued from a previous conversation.\n\nSummary:\n6. All user messages:\n   - "Session tokens expire after 24 hours — sorry, I meant 12 hours, not 24."',
    );
    const all = texts(await candidatesOf(tmp(), s));
    expect(all.some((t) => /24 hours/.test(t))).toBe(false);
    expect(all.some((t) => /expire after 12 hours/.test(t))).toBe(true);
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
    const cwd = '/home/ana/src/billing';
    const report = 'The invoice totals are off by one cent, it is a rounding bug in sum_lines().';
    const fixed = session(cwd)
      .user(report)
      .assistant('sum_lines() rounds each line before adding; rounding the total instead.')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/billing/totals.py`, old_string: 'round(l.amount, 2)', new_string: 'l.amount' })
      .toolResult('e1', 'The file has been updated successfully.')
      .toolUse('b1', 'Bash', { command: 'pytest -q' })
      .toolResult('b1', '12 passed in 0.41s')
      .user('Never swallow errors in the sync worker, log them with the event id.');
    const all = texts(await candidatesOf(tmp(), fixed));
    expect(all.some((t) => /off by one cent/.test(t))).toBe(false);
    expect(all.some((t) => /Never swallow errors/.test(t))).toBe(true);
    const open = session(cwd).user(report).assistant('I will look into it.');
    expect(texts(await candidatesOf(tmp(), open)).some((t) => /off by one cent/.test(t))).toBe(true);
  });

  it('trouble is fixed when the check passes after the person asks to run it again, and not when they move on', async () => {
    const cwd = '/home/ana/src/thumbs';
    const report = 'The thumbnail worker OOMs on large TIFF uploads.';
    const attempt = (s: ClaudeSession) =>
      s
        .toolUse('e1', 'Edit', { file_path: `${cwd}/worker/resize.py`, old_string: 'img.load()', new_string: 'img.draft("RGB", (2048, 2048))' })
        .toolResult('e1', 'The file has been updated successfully.')
        .toolUse('b1', 'Bash', { command: 'pytest -q' })
        .toolResult('b1', '1 failed, 30 passed', true);
    const rerun = attempt(session(cwd).user(report))
      .user('run the tests again')
      .toolUse('b2', 'Bash', { command: 'pytest -q' })
      .toolResult('b2', '31 passed in 2.10s');
    expect(texts(await candidatesOf(tmp(), rerun)).some((t) => /OOMs on large TIFF/.test(t))).toBe(false);
    const movedOn = attempt(session(cwd).user(report))
      .user('leave it, rename the worker module first')
      .toolUse('b2', 'Bash', { command: 'pytest -q' })
      .toolResult('b2', '31 passed in 2.10s');
    expect(texts(await candidatesOf(tmp(), movedOn)).some((t) => /OOMs on large TIFF/.test(t))).toBe(true);
  });

  it.each([
    ['Still left from last week: the PDF version of the VAT report.', 'PDF version of the VAT report', 'Add PDF export of the VAT report'],
    ['On reprend : il reste la politique de retry pour les miniatures.', 'politique de retry', 'feat(media): retry failed thumbnails'],
    ['Retomo lo de la semana pasada: falta la paginación del listado por zona.', 'paginación del listado', 'feat: keyset pagination for zones'],
  ])('open work the session took up and committed is not still open: %s', async (said, words, message) => {
    const cwd = '/home/ana/src/reports';
    const work = (s: ClaudeSession, commit: string) =>
      s
        .toolUse('e1', 'Edit', { file_path: `${cwd}/reports/vat.py`, old_string: 'pass', new_string: 'render()' })
        .toolResult('e1', 'The file has been updated successfully.')
        .toolUse('c1', 'Bash', { command: commit })
        .toolResult('c1', '[main 1a2b3c4] the work');
    const has = async (s: ClaudeSession) => texts(await candidatesOf(tmp(), s)).some((t) => t.includes(words));
    // Taken up at once (or once the agent's question was answered), then committed under its name: done.
    expect(await has(work(session(cwd).user(said), `git commit -m "${message}"`))).toBe(false);
    expect(await has(work(session(cwd).user(said).assistant('Should I also add the cache?').user('No, just that.'), `git -C . commit -am "${message}"`))).toBe(
      false,
    );
    // Worked on but never committed, a commit of other work, or the person moved on first: still open.
    expect(await has(work(session(cwd).user(said), 'git status'))).toBe(true);
    expect(await has(work(session(cwd).user(said), 'git commit -m "Bump the linter"'))).toBe(true);
    expect(await has(work(session(cwd).user(said).assistant('Noted.').user('First, rename the module.'), `git commit -m "${message}"`))).toBe(true);
  });
});

describe('work the person agreed to have done', () => {
  const cwd = '/home/ana/src/wiki';
  const offer =
    'The README still says "ProjectTracker" in four places. Would you like me to update it to:\n1. Replace "ProjectTracker" with "matterbase"\n2. Reword the intro';
  const edit = (s: ClaudeSession) =>
    s
      .toolUse('e1', 'Edit', { file_path: `${cwd}/README.md`, old_string: 'ProjectTracker', new_string: 'matterbase' })
      .toolResult('e1', 'The file has been updated successfully.');
  const kept = async (s: ClaudeSession, said: RegExp) => texts(await candidatesOf(tmp(), s)).some((t) => said.test(t));

  it.each([
    ['yes, we need a full search and replace across the repo', 'The search and replace is complete: four places in the README.'],
    ['sure, do the rename in the docs folder too', 'Done: the rename is in the README and the docs folder.'],
  ])('"%s" is the task of that moment once the agent did it and said so', async (reply, report) => {
    const said = new RegExp(reply.slice(0, 20));
    expect(await kept(edit(session(cwd).assistant(offer).user(reply)).assistant(report), said)).toBe(false);
  });

  it('stands when nothing was offered, nothing was done, or it says how a thing should be', async () => {
    const reply = 'yes, we need a full search and replace across the repo';
    const report = 'The search and replace is complete: four places in the README.';
    // No offer before it: a need of the person's own.
    expect(await kept(edit(session(cwd).assistant('The README mentions ProjectTracker.').user(reply)).assistant(report), /full search and replace/)).toBe(true);
    // Offered and agreed, but no file changed, or no report of it done.
    expect(await kept(session(cwd).assistant(offer).user(reply).assistant(report), /full search and replace/)).toBe(true);
    expect(await kept(edit(session(cwd).assistant(offer).user(reply)).assistant('Next I will look at the docs.'), /full search and replace/)).toBe(true);
    // How the thing should be stands once done.
    const design = 'yes, the source type would be more like camera-still-capture';
    expect(
      await kept(edit(session(cwd).assistant(offer).user(design)).assistant('Replaced: the source type is camera-still-capture now.'), /camera-still-capture/),
    ).toBe(true);
  });
});

describe('one statement once', () => {
  it("a restatement and the summary bullet holding it collapse into the person's typed words", async () => {
    const rule = 'When the upload queue is full, reject new uploads with a 429 and never drop queued ones.';
    const s = session('/home/ana/src/gateway')
      .user(rule)
      .assistant('Adding a bounded queue.')
      .compactSummary(
        'This session is being continued from a previous conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - Full upload queue: reject new uploads with a 429, never drop queued ones (bounded queue in the gateway)\n2. Key Technical Concepts:\n   - Bounded queues and HTTP 429',
      )
      .user('again: upload queue full means reject new uploads with a 429, never drop queued ones');
    const all = await candidatesOf(tmp(), s);
    const same = all.filter((c) => /queued ones/.test(c.text));
    expect(same.map((c) => [c.source, c.text])).toEqual([['typed', rule]]);
    expect(same[0]?.repeats).toBeGreaterThan(0);
  });

  it.each([
    ['Always deploy the frontend app to the staging cluster in the eu region.', 'Also: always deploy the backend app to the staging cluster in the eu region.'],
    ['Run the nightly export job against the replica database.', 'Do not run the nightly export job against the replica database during business hours.'],
    ['Keep 30 days of audit logs in the hot tier.', 'Keep 90 days of audit logs in the hot tier for the billing tenant.'],
  ])('a swapped word, a negation or another number makes another statement: %s', async (a, b) => {
    const s = session('/home/ana/src/ops').user(`${a} ${b}`).assistant('OK.');
    expect(texts(await candidatesOf(tmp(), s)).filter((t) => /app to the staging|nightly export|audit logs/.test(t))).toHaveLength(2);
  });

  it('lines that open the same way and then say different things stay apart', async () => {
    const lead = 'Please keep in mind for future sessions in this repo:';
    const s = session('/home/ana/src/shop')
      .user(`${lead} checkout logic lives in src/payments/checkout.ts.`)
      .assistant('Noted.')
      .user(`${lead} the search indexer is src/search/indexer.ts.`)
      .assistant('Noted.');
    expect(texts(await candidatesOf(tmp(), s)).filter((t) => t.startsWith(lead))).toHaveLength(2);
  });
});

describe('rules in other languages stay whole', () => {
  it.each([
    "Quand tu ajoutes une route à l'API, écris toujours le test d'intégration dans tests/api avant le code — même pour une petite route, parce que la CI refuse les routes sans test et que personne ne veut corriger ça après coup.",
    'Cuando toques los modelos de Django, crea siempre la migración con makemigrations y revisa el SQL con sqlmigrate antes de hacer commit — aunque parezca un cambio pequeño, porque en producción no hay vuelta atrás fácil.',
    'Wenn du eine neue Komponente im Design-System anlegst, schreib immer zuerst die Storybook-Story und dann den Code; so sehen die anderen sofort, wie sie aussieht — auch wenn das am Anfang etwas länger dauert.',
  ])('%s', async (rule) => {
    expect(rule.length).toBeGreaterThan(200);
    const all = texts(await candidatesOf(tmp(), session('/home/ana/src/x').user(rule).assistant('OK.')));
    expect(all).toEqual([rule]);
  });
});

/** The session state builder and the project resolution, on messages written for the test. */
import { describe, expect, it } from 'vitest';
import {
  archivedLines,
  compactState,
  emptySessionState,
  KEEP_SESSIONS,
  type ProjectState,
  resolveState,
  StateBuilder,
  stateItems,
} from '../../../src/memory/state/index.js';
import { undoneBy } from '../../../src/memory/state/build.js';
import { AGE_SESSIONS } from '../../../src/memory/state/resolve.js';
import { disputes, reportClaims, reportPending, saysWhatWasDone } from '../../../src/memory/state/report.js';
import type { TranscriptMessage } from '../../../src/memory/transcripts/types.js';

let n = 0;
const at = (i: number) => new Date(Date.parse('2026-11-01T10:00:00Z') + i * 60_000).toISOString();
const msg = (m: Partial<TranscriptMessage>): TranscriptMessage => ({
  id: `m${++n}`,
  role: 'assistant',
  kind: 'text',
  origin: 'assistant',
  text: '',
  timestamp: at(n),
  ...m,
});
const todo = (todos: TranscriptMessage['todos']) => msg({ kind: 'tool_use', toolName: 'TodoWrite', todos });
const commit = (message: string, hash: string) =>
  msg({
    role: 'user',
    kind: 'tool_result',
    origin: 'tool',
    command: `git add -A && git commit -m "${message}"`,
    exitCode: 0,
    text: `[main ${hash}] ${message}\n 2 files changed`,
  });
const shell = (command: string, exitCode = 0) => msg({ role: 'user', kind: 'tool_result', origin: 'tool', command, exitCode, text: '' });
const typed = (text: string) => msg({ role: 'user', origin: 'typed', text });

const write = (id: string) => msg({ kind: 'tool_use', toolName: 'Edit', toolUseId: id, paths: ['/p/app/chart.js'] });
const result = (id: string, isError = false) =>
  msg({ role: 'user', kind: 'tool_result', origin: 'tool', toolUseId: id, isError, text: isError ? 'The user rejected the edit' : 'ok' });

function session(id: string, messages: TranscriptMessage[]) {
  const s = emptySessionState(id, id);
  const b = new StateBuilder(s);
  for (const m of messages) b.add(m);
  return s;
}
const project = (...sessions: ReturnType<typeof session>[]): ProjectState => ({ version: 1, project: '/p', sessions, archive: [] });
const none = () => 0;

describe('state builder', () => {
  it('keeps the last task list only, commits with their short hash, approved plans once carried out', () => {
    const s = session('s1', [
      todo([{ content: 'Write the orders migration', status: 'in_progress' }]),
      todo([
        { content: 'Write the orders migration', status: 'completed' },
        { content: 'Backfill the totals column', status: 'pending' },
      ]),
      msg({ origin: 'plan', plan: 'approved', text: '# Plan: split the invoice module\n\n1. move files' }),
      msg({ origin: 'plan', plan: 'rejected', text: 'Plan: rewrite everything in Rust' }),
      commit('Add the orders migration', 'a1b2c3d4e5'),
    ]);
    expect(s.todos.map((t) => [t.text, t.status])).toEqual([
      ['Write the orders migration', 'completed'],
      ['Backfill the totals column', 'pending'],
    ]);
    expect(s.commits).toMatchObject([{ text: 'Add the orders migration', hash: 'a1b2c3d' }]);
    expect(s.plans).toMatchObject([{ text: 'split the invoice module', carried: true }]);
  });

  it("drops a report's pending part once a task list is set after it; a report after the list keeps its own", () => {
    const report = (text: string) => msg({ text });
    const before = session('s1', [
      report('Models are in place.\n\nStill to do:\n- Research the chart library for the progress page\n- Add the volume view'),
      todo([
        { content: 'Pick a chart library and draw the progress page', status: 'completed' },
        { content: 'Add the volume view', status: 'pending' },
      ]),
    ]);
    expect(before.reportPending).toEqual([]);
    expect(before.todos.map((t) => t.status)).toEqual(['completed', 'pending']);
    const after = session('s2', [
      todo([{ content: 'Add the volume view', status: 'completed' }]),
      report('The volume view is done.\n\nStill to do:\n- Upload PR videos to S3'),
    ]);
    expect(after.reportPending.map((e) => e.text)).toEqual(['Upload PR videos to S3']);
  });

  it('marks commits undone by git revert and git reset --hard', () => {
    const s = session('s2', [
      commit('Cache the price lookups', '1111111'),
      commit('Log every request body', '2222222'),
      shell('git revert --no-edit 2222222'),
      commit('Tune the pool size', '3333333'),
      shell('git reset --hard HEAD~1'),
    ]);
    expect(s.commits.map((c) => [c.hash, c.reverted === true])).toEqual([
      ['1111111', false],
      ['2222222', true],
      ['3333333', true],
    ]);
    expect(undoneBy('git status')).toBeUndefined();
    expect(undoneBy('git reset --soft HEAD~1')).toBeUndefined();
  });

  it('masks secrets in what it stores', () => {
    const s = emptySessionState('s4', 's4');
    const b = new StateBuilder(s);
    b.add(todo([{ content: 'Rotate the key sk-ant-api03-Zx81Qm4LpT7vNc2Rb9Kd5Hs3Fw6Jy0Ga1Ue8Oi4Pn7Tq2Lm5Vb3Xc9Dz6Rk1Yh0Wa4Se', status: 'pending' }]));
    const stored = b.result();
    expect(stored.todos[0]?.text).toMatch(/^Rotate the key \[REDACTED:/);
  });

  it('drops report claims the person disputes', () => {
    const s = session('s3', [msg({ text: 'Done: the export now streams to S3.' }), typed("no, it still buffers everything, that's not fixed")]);
    expect(s.claims).toEqual([]);
  });

  it('records a change the person asked for once a write for it went through, and not one declined, failed, taken back or never made', () => {
    const s = session('s5', [
      typed('Move the size legend above the chart.'),
      write('w1'),
      result('w1'),
      // A declined write changed nothing.
      typed('Add a toggle to adjust the grosses for inflation.'),
      write('w2'),
      result('w2', true),
      // Asked, then the person spoke again before any write: the request was not carried out then.
      typed('Rename the page title to Bollywood by year.'),
      typed('what does the legend show?'),
      write('w3'),
      result('w3'),
      // Carried out, then taken back.
      typed('Make the bars orange.'),
      write('w4'),
      result('w4'),
      typed('actually no, keep the bars blue'),
      // The same request read twice is one change.
      typed('Move the size legend above the chart.'),
      write('w5'),
      result('w5'),
    ]);
    expect(s.requests.map((r) => r.text)).toEqual(['Move the size legend above the chart.']);
  });

  it('records a change whose request, write and result came in different ingests of the file', () => {
    /** Ingests one part after the other, each from the record the one before stored (as a JSON round trip). */
    const inParts = (id: string, parts: TranscriptMessage[][]) =>
      parts.reduce(
        (s, part) => {
          const b = new StateBuilder(JSON.parse(JSON.stringify(s)) as ProjectState['sessions'][number]);
          for (const m of part) b.add(m);
          return b.result();
        },
        emptySessionState(id, id),
      );
    const request = () => typed('Move the size legend above the chart.');
    expect(inParts('p1', [[request()], [write('w1'), result('w1')]]).requests.map((r) => r.text)).toEqual(['Move the size legend above the chart.']);
    expect(inParts('p2', [[request(), write('w1')], [result('w1')]]).requests.map((r) => r.text)).toEqual(['Move the size legend above the chart.']);
    // Taken back in the next ingest, and a write that failed after the boundary: neither stands.
    expect(inParts('p3', [[request(), write('w1'), result('w1')], [typed('actually no, keep it where it was')]]).requests).toEqual([]);
    expect(inParts('p4', [[request(), write('w1')], [result('w1', true)]]).requests).toEqual([]);
    // Nothing is carried once nothing is in hand.
    expect(inParts('p5', [[request(), write('w1'), result('w1'), typed('thanks')]]).carry).toEqual({
      asked: null,
      writes: [],
      recentRequest: false,
      filling: [],
    });
  });
});

describe('report reading', () => {
  it("leaves out a compaction summary's pending section that says nothing is pending", () => {
    const summary = (pending: string) =>
      msg({
        role: 'user',
        origin: 'summary',
        compactSummary: true,
        text: `This session is being continued from a previous conversation that ran out of context.\n\n1. Primary Request and Intent:\n   A sticky-note app.\n\n7. Pending Tasks:\n${pending}\n\n8. Current Work:\n   The redesign.`,
      });
    expect(session('s1', [summary('   - No explicitly pending tasks. All 7 tasks completed.')]).summary).toEqual([]);
    expect(session('s2', [summary('   - Benchmark the presigned URL path')]).summary.map((e) => e.text)).toEqual(['Benchmark the presigned URL path']);
    // The agent's question nobody answered is no one's work.
    const open = summary(
      '   - Benchmark the presigned URL path\n   - Open question: drop the two unused NAT gateways in eu-west-1 (the user has not answered)',
    );
    expect(session('s3', [open]).summary.map((e) => e.text)).toEqual(['Benchmark the presigned URL path']);
  });

  it('finds the pending part under a heading or after a colon, in several wordings', () => {
    expect(reportPending('All wired up.\n\nStill pending:\n- the DKB import\n- dedupe by booking reference\n\nAnything else?')).toEqual([
      'the DKB import',
      'dedupe by booking reference',
    ]);
    expect(reportPending('C’est fait. Reste à faire : la purge des fichiers après 30 jours.')).toEqual(['la purge des fichiers après 30 jours']);
    expect(reportPending('## Next steps\n1. Wire the webhook\n2. Add the e2e test')).toEqual(['Wire the webhook', 'Add the e2e test']);
    expect(reportPending('I fixed the pending migration bug.')).toEqual([]);
    expect(reportPending('Models are in.\n\n## 🔄 **Currently Working On:**\n- Researching the volume view')).toEqual(['Researching the volume view']);
    expect(reportPending("Here's what is left.\n\n## **Next Priority Items:**\n1. **Chart views** - wire Chart.js\n2. The PR dashboard")).toEqual([
      'Chart views - wire Chart.js',
      'The PR dashboard',
    ]);
    // Said in a sentence, not leading a list: the work of the moment, not a part of the report.
    expect(reportPending("I'm working on the parser now, then the tests.")).toEqual([]);
    // A numbered group title over its steps is no item; the groups of one list may be set apart by blank lines.
    expect(
      reportPending(
        '## Still To Do:\n\n3. **Template & UI Layer**\n   - Create the chart templates\n   - Add the filter bar\n\n4. **Volume Tracking**\n   - Add volume by body part\n\nWant me to go on?',
      ),
    ).toEqual(['Create the chart templates', 'Add the filter bar', 'Add volume by body part']);
  });

  it('shows only claims that say in themselves what was done', () => {
    expect(saysWhatWasDone('Added the deposit route for the vault')).toBe(true);
    expect(saysWhatWasDone('Backend is implemented and running at http://127.0.0.1:8080')).toBe(true);
    expect(saysWhatWasDone('Both fixes are merged.')).toBe(true);
    // A heading, a compound adjective, a finding and what is not done yet.
    expect(saysWhatWasDone('Implemented')).toBe(false);
    expect(saysWhatWasDone('Fixed-point strategy and risk engine')).toBe(false);
    expect(saysWhatWasDone('One real company is merged across two domains with no flag')).toBe(false);
    expect(saysWhatWasDone('Prediction exists as a button but is not implemented yet')).toBe(false);
  });
  it('reads done claims outside the pending part', () => {
    expect(reportClaims('Implemented the zone endpoint with keyset pagination.\n\nRemaining:\n- caching')).toEqual([
      'Implemented the zone endpoint with keyset pagination',
    ]);
    expect(disputes('No, that is wrong')).toBe(true);
    expect(disputes('great, thanks')).toBe(false);
  });
});

describe('project resolution', () => {
  const s1 = session('s1', [
    todo([
      { content: 'Add retry to the S3 part uploads', status: 'pending' },
      { content: 'Emit an export_completed event', status: 'in_progress' },
      { content: 'Stream the CSV export', status: 'completed' },
    ]),
    commit('Stream the CSV export to S3', 'aaaaaaa'),
    msg({
      role: 'user',
      kind: 'summary',
      origin: 'summary',
      compactSummary: true,
      text: 'Summary.\n\nPending Tasks:\n- Rotate the signing keys\n\nCurrent Work:\nexports',
    }),
  ]);

  it('keeps open what is pending, never a completed item, and lists what was built', () => {
    const lines = resolveState(project(s1), none);
    expect(lines.filter((l) => l.kind === 'open').map((l) => l.text)).toEqual([
      'Add retry to the S3 part uploads',
      'Emit an export_completed event',
      'Rotate the signing keys',
    ]);
    expect(lines.filter((l) => l.kind === 'built')).toMatchObject([{ text: 'Stream the CSV export to S3', hashes: ['aaaaaaa'] }]);
  });

  it('closes an item a later commit or todo list covers, and drops an older summary once a later session has a record', () => {
    const s2 = session('s2', [
      todo([{ content: 'Emit an export_completed event', status: 'completed' }]),
      commit('Add retry to S3 part uploads with jitter', 'bbbbbbb'),
    ]);
    const open = resolveState(project(s1, s2), none).filter((l) => l.kind === 'open');
    expect(open).toEqual([]);
  });

  it('lists a completed task as built only when it changed something, not when it looked, ran or pushed', () => {
    const s = session('s7', [
      todo([
        { content: 'Add the fetch_failed variant to the formatter', status: 'completed' },
        { content: 'Locate the capture codebase for the integration', status: 'completed' },
        { content: 'Push all documentation changes', status: 'completed' },
        { content: 'Commit the camera status notes', status: 'completed' },
        { content: 'Research the plugin API', status: 'completed' },
      ]),
    ]);
    const built = resolveState(project(s), none).filter((l) => l.kind === 'built');
    expect(built.map((l) => l.text)).toEqual(['Add the fetch_failed variant to the formatter']);
  });

  it('lists a change asked for and made as built, unless a commit of the session names it', () => {
    const asked = (text: string, id: string) => [
      typed(text),
      msg({ kind: 'tool_use', toolName: 'Write', toolUseId: id, paths: ['/p/README.md'] }),
      msg({ role: 'user', kind: 'tool_result', origin: 'tool', toolUseId: id, text: 'File created' }),
    ];
    const s = session('s6', [
      ...asked('Add a README that explains how the data was sourced.', 'r1'),
      ...asked('Write the seed script for the demo rooms.', 'r2'),
      commit('Write the seed script for the demo rooms', 'ccccccc'),
    ]);
    const built = resolveState(project(s), none).filter((l) => l.kind === 'built');
    expect(built.map((l) => [l.source, l.text])).toEqual([
      ['commit', 'Write the seed script for the demo rooms'],
      ['request', 'Add a README that explains how the data was sourced.'],
    ]);
    // What the session committed is one line, what it built otherwise another, each piece with its source.
    expect(stateItems(built, 500).items.map((i) => i.text)).toEqual([
      expect.stringMatching(/^Committed \d{4}-\d\d-\d\d: Write the seed script for the demo rooms \(ccccccc\)$/),
      expect.stringMatching(/^Built \d{4}-\d\d-\d\d: Add a README that explains how the data was sourced \(as asked\)$/),
    ]);
  });

  it("shows an older session's finished tasks its commits do not name, only in the room the rest leaves, and never archives them", () => {
    const older = session('o1', [
      todo([
        { content: 'List view with an add/edit sheet', status: 'completed' },
        { content: 'Shopping list persistence', status: 'completed' },
      ]),
      commit('Add shopping list with SwiftData persistence', '5878d16'),
    ]);
    const newer = session('n1', [
      commit('Sync the list through CloudKit', 'abcdef1'),
      commit('Add the home screen widget', 'abcdef2'),
      commit('Share a list with family members', 'abcdef3'),
    ]);
    const lines = resolveState(project(older, newer), none);
    expect(lines.filter((l) => l.source === 'todo').map((l) => l.text)).toEqual(['List view with an add/edit sheet']);
    const { items, said } = stateItems(lines, 500);
    expect(items.map((i) => i.text)).toContainEqual(expect.stringMatching(/^Built [\d-]+: List view with an add\/edit sheet \(tasks, done\)$/));
    // Taken last, after every commit of either session: it waits when the room is short.
    expect(said.at(-1)).toBe('List view with an add/edit sheet');
    expect(said).toHaveLength(5);
    // Once the dream archives the older session, its commit stands there, its task does not.
    const later = Array.from({ length: KEEP_SESSIONS }, (_, k) => session(`x${k}`, [commit(`Ship part ${k} of the app`, `${k}`.padStart(7, 'f'))]));
    const archive = compactState(project(older, newer, ...later), none).state.archive.map((a) => a.text);
    expect(archive).toContainEqual(expect.stringContaining('SwiftData persistence'));
    expect(archive).not.toContainEqual(expect.stringContaining('add/edit sheet'));
  });

  it("shows what a session's last report says was done where no commit says its work, and never archives it", () => {
    const reported = session('r1', [
      typed('The vault needs a way to take deposits.'),
      msg({ text: 'Added a draft of the deposit form.' }),
      msg({ text: 'Done:\n- Added the deposit route for the vault\n- The USDC mint is now configured\n- Implemented' }),
    ]);
    const lines = resolveState(project(reported), none).filter((l) => l.source === 'report');
    expect(lines.map((l) => [l.kind, l.text])).toEqual([['built', 'Added the deposit route for the vault']]);
    const later = Array.from({ length: KEEP_SESSIONS }, (_, k) => session(`y${k}`, [commit(`Ship part ${k} of the vault`, `${k}`.padStart(7, 'e'))]));
    const archive = compactState(project(reported, ...later), none).state.archive.map((a) => a.text);
    expect(archive).not.toContainEqual(expect.stringContaining('deposit route'));
  });

  it('ages out an item pending for many of the project sessions', () => {
    expect(resolveState(project(s1), () => 10).filter((l) => l.kind === 'open')).toEqual([]);
    expect(resolveState(project(s1), () => AGE_SESSIONS).filter((l) => l.kind === 'open')).toEqual([]);
    expect(resolveState(project(s1), () => AGE_SESSIONS - 1).filter((l) => l.kind === 'open')).not.toEqual([]);
  });
});

describe('dream compaction', () => {
  it('keeps the last sessions, archives older finished work with its session, merges one piece of work', () => {
    const sessions = Array.from({ length: KEEP_SESSIONS + 2 }, (_, i) =>
      session(`s${String(i).padStart(2, '0')}`, [
        commit(`Build feature number ${i} of the catalogue`, `${i}`.padStart(7, 'a')),
        todo([{ content: `Polish step ${i}`, status: 'pending' }]),
      ]),
    );
    const last = sessions[sessions.length - 1];
    if (last !== undefined) {
      const b = new StateBuilder(last);
      b.add(commit('Build feature number 9 of the catalogue: tests', 'fffffff'));
    }
    const r = compactState(project(...sessions), none);
    expect(r.state.sessions).toHaveLength(KEEP_SESSIONS);
    expect(r.state.archive.map((a) => a.sessionId)).toEqual(['s00', 's01']);
    expect(r.state.archive[0]?.text).toMatch(/^Built: Build feature number 0 of the catalogue \(a{6}0\)$/);
    expect(r.merged).toBe(1);
    expect(r.state.sessions[r.state.sessions.length - 1]?.commits).toMatchObject([{ hash: 'aaaaaa9, fffffff' }]);
  });

  it('reads archived work back as finished lines with their hashes and session', () => {
    const sessions = Array.from({ length: KEEP_SESSIONS + 2 }, (_, i) => session(`s${i}`, [commit(`Ship part ${i} of the importer`, `${i}`.padStart(7, 'b'))]));
    const lines = archivedLines(compactState(project(...sessions), none).state);
    expect(lines.map((l) => [l.kind, l.source, l.text, l.hashes, l.sessionId])).toEqual([
      ['built', 'commit', 'Ship part 0 of the importer', ['bbbbbb0'], 's0'],
      ['built', 'commit', 'Ship part 1 of the importer', ['bbbbbb1'], 's1'],
    ]);
  });

  it("says what one session's task list, and its report, left open in a line each, in progress first, as far as the room allows", () => {
    const s = session('s1', [
      todo([
        { content: 'Add the CSV export', status: 'pending' },
        { content: 'Wire the exporter into the CLI', status: 'in_progress' },
        { content: 'Document the export flags', status: 'pending' },
      ]),
      msg({ text: 'Exporter wired.\n\nNext steps:\n- Run npm install\n- Set EXPORT_DIR in your .env' }),
    ]);
    const lines = (room: number) => stateItems(resolveState(project(s), none), room).items.map((i) => i.text);
    expect(lines(400)).toEqual([
      'Open (tasks, 2026-11-01): Wire the exporter into the CLI (in progress) · Add the CSV export · Document the export flags',
      "Open (the agent's report, 2026-11-01): Run npm install · Set EXPORT_DIR in your .env",
    ]);
    // A line grows a piece at a time while it fits: the rest waits, nothing is cut.
    expect(lines(24)).toEqual(['Open (tasks, 2026-11-01): Wire the exporter into the CLI (in progress)']);
  });

  it("spreads the room over several sessions: the latest one's many commits do not push out older work", () => {
    const subjects = [
      'Parse YAML front matter in posts',
      'Render footnotes as sidenotes',
      'Cache thumbnails on disk',
      'Export the feed as JSON',
      'Schedule drafts for publishing',
      'Upload images to the bucket',
      'Index tags for the archive page',
      'Mail a digest every Friday',
      'Bill sponsors through Stripe',
      'Search posts with SQLite FTS',
    ];
    const older = ['Replace the cron jobs with a queue worker', 'Move the API docs into docs/api', 'Switch the database to Postgres 16'].map((c, i) =>
      session(`old${i}`, [commit(c, `${i}`.padStart(7, 'c'))]),
    );
    const latest = session('new', [
      todo([{ content: 'Wire the exporter into the CLI', status: 'pending' }]),
      ...subjects.map((c, i) => commit(c, `${i}`.padStart(7, 'd'))),
    ]);
    const { items, said } = stateItems(resolveState(project(...older, latest), none), 150);
    const texts = items.map((i) => i.text);
    expect(texts[0]).toMatch(/^Open \(tasks, [^)]*\): Wire the exporter/);
    for (const c of ['cron jobs', 'API docs', 'Postgres 16']) expect(texts.some((t) => t.includes(c))).toBe(true);
    expect(texts.some((t) => t.includes('YAML front matter'))).toBe(true);
    // The room holds: some of the latest session's commits wait, and what is shown is what is said.
    expect(items.reduce((n, i) => n + i.tokens, 0)).toBeLessThanOrEqual(150);
    expect(said.filter((t) => subjects.includes(t)).length).toBeLessThan(subjects.length);
    expect(subjects.filter((c) => texts.some((t) => t.includes(c)))).toEqual(subjects.filter((c) => said.includes(c)));
  });

  it("writes a session's finished work as one line, so the same room shows more of it than a line a commit", () => {
    const subjects = ['Parse YAML front matter in posts', 'Render footnotes as sidenotes', 'Cache thumbnails on disk', 'Export the feed as JSON'];
    const s = session(
      'one',
      subjects.map((c, i) => commit(c, `${i}`.padStart(7, 'e'))),
    );
    const { items } = stateItems(resolveState(project(s), none), 500);
    expect(items).toHaveLength(1);
    expect(items[0]?.text).toMatch(
      /^Committed \d{4}-\d\d-\d\d: Parse YAML front matter in posts \(eeeeee0\) · Render footnotes as sidenotes \(eeeeee1\) · Cache thumbnails on disk \(eeeeee2\) · Export the feed as JSON \(eeeeee3\)$/,
    );
    // A line a commit, each with its own date and source, would not fit the room this line takes.
    const cost = items[0]?.tokens ?? 0;
    const lineEach = subjects.reduce((n, c, i) => n + Math.ceil(`Built: ${c} (committed ${`${i}`.padStart(7, 'e')}, 2026-01-01)`.length / 4) + 4, 0);
    expect(cost).toBeLessThan(lineEach * 0.7);
  });
});

/**
 * The block the next session is handed, through the CLI against a real daemon, on short sessions
 * written for this test in several wordings: crisp facts and rules are kept and recalled, rules in
 * conditional form are rules, one-off requests and chatter are never stored, and the block's
 * sections follow the kinds (a one-off or a decision is never under "Standing rules").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { ago, ingest, memories, project, recall, recalled } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-kinds-');

/** A short session: each statement typed, the agent acknowledging it, a closing thanks. */
function short(id: string, cwd: string, statements: readonly string[]): ClaudeSession {
  const s = new ClaudeSession({ sessionId: id, cwd });
  for (const t of statements) s.user(t).assistant('Noted.');
  return s.user('thanks!');
}

/** The Markdown block's sections and the lines under each. */
async function sections(d: ReturnType<typeof newDaemon>, cwd: string): Promise<Map<string, string[]>> {
  const r = await d.cli(['recall', '--project', cwd, '--format', 'markdown']);
  expect(r.code, r.stderr).toBe(0);
  const out = new Map<string, string[]>();
  let at = '';
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('## ')) out.set((at = line.slice(3)), []);
    else if (line.startsWith('- ') && at) out.get(at)?.push(line);
  }
  return out;
}

describe('kinds through the CLI', () => {
  it.each([
    [
      'a blog',
      ['The blog is built with Astro.', 'We deploy with npm run deploy.', 'Use British spelling in posts.', 'Indent with two spaces.'],
      [/astro/i, /npm run deploy/i, /british spelling/i, /two spaces/i],
    ],
    [
      'an API',
      ['The API is written in Go.', 'Postgres 16 is the database.', 'Never log request bodies.', 'Commit messages follow Conventional Commits.'],
      [/\bgo\b/i, /postgres 16/i, /request bodies/i, /conventional commits/i],
    ],
    [
      'a CLI',
      ['It is a Rust CLI built on clap.', 'Releases go out through cargo-dist.', 'Keep every command under 100 ms to start.'],
      [/clap/i, /cargo-dist/i, /100 ms/i],
    ],
    [
      'a notebook repo',
      ['The notebooks analyse the sensor logs.', 'polars, not pandas.', 'tabs, not spaces.'],
      [/sensor logs/i, /polars, not pandas/i, /tabs, not spaces/i],
    ],
  ])('crisp facts and rules of %s in a session of a few messages are stored and recalled', async (name, statements, wanted) => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const cwd = project(dir, name.replace(/\W+/g, '-'));
    await ingest(d, short('crisp', cwd, statements), dir, 'crisp');
    const r = await recall(d, cwd);
    for (const re of wanted) expect([re.source, recalled(r, re)]).toEqual([re.source, true]);
  });

  it('rules in conditional or subordinate form are kept, under "Standing rules"', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const cwd = project(dir, 'shop');
    await ingest(
      d,
      short('cond', cwd, [
        'When you touch the migrations, run make check first.',
        'If a test is flaky, mark it as skipped and open an issue instead of retrying it.',
        'Before you open a pull request, update the changelog.',
        // No comma: "please" ends the condition.
        'When you change the billing module please run the contract tests before you push.',
      ]),
      dir,
      'cond',
    );
    const rules = (await sections(d, cwd)).get('Standing rules') ?? [];
    expect(rules.some((l) => /make check/.test(l))).toBe(true);
    expect(rules.some((l) => /flaky/.test(l))).toBe(true);
    expect(rules.some((l) => /changelog/.test(l))).toBe(true);
    expect(rules.some((l) => /contract tests/.test(l))).toBe(true);
  });

  it('one-off requests and chatter are never stored; a decision is under "Decisions", never "Standing rules"', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const cwd = project(dir, 'notes');
    const s = new ClaudeSession({ sessionId: 'oneoff', cwd })
      .user('run the tests again')
      .assistant('All 42 pass.')
      .user('explain this function')
      .assistant('It debounces the save.')
      .user('haha nice, that was quick')
      .user("Let's go with SQLite for the local cache.")
      .user('Never commit the generated client.');
    await ingest(d, s, dir, 'oneoff');
    const stored = (await memories(d, cwd)).map((m) => m.content);
    expect(stored.filter((t) => /tests again|explain this|haha/i.test(t))).toEqual([]);
    const block = await sections(d, cwd);
    expect((block.get('Standing rules') ?? []).some((l) => /generated client/.test(l))).toBe(true);
    expect((block.get('Standing rules') ?? []).some((l) => /SQLite|tests again|explain/.test(l))).toBe(false);
    expect((block.get('Decisions') ?? []).some((l) => /SQLite/.test(l))).toBe(true);
  });

  it('the state of the work as the person put it is recalled until the next session of the project, not after', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const cwd = project(dir, 'exports');
    await ingest(
      d,
      new ClaudeSession({ sessionId: 'st-1', cwd, start: ago(2) })
        .user('The CSV export is still broken on Safari right now.')
        .user('Never log request bodies.'),
      dir,
      'st-1',
    );
    expect(recalled(await recall(d, cwd), /still broken on Safari/)).toBe(true);
    await ingest(d, new ClaudeSession({ sessionId: 'st-2', cwd, start: ago(1) }).user('Keep the export endpoints under /api/v2.'), dir, 'st-2');
    const r = await recall(d, cwd);
    expect(recalled(r, /still broken on Safari/)).toBe(false);
    expect(recalled(r, /request bodies/)).toBe(true);
  });

  it('how a thing is "now" is a fact that outlives the next session, not the state of the work', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const cwd = project(dir, 'ferry');
    await ingest(d, short('now-1', cwd, ['The timetable sync reads from the harbour API at api.harbour.example/v1.']).user('thanks'), dir, 'now-1');
    await ingest(
      d,
      new ClaudeSession({ sessionId: 'now-2', cwd, start: ago(2) }).user('The harbour API now lives at api.harbour.example/v2, not /v1.').assistant('Noted.'),
      dir,
      'now-2',
    );
    await ingest(
      d,
      new ClaudeSession({ sessionId: 'now-3', cwd, start: ago(1) }).user('Keep the sync command under cmd/sync.').assistant('Noted.'),
      dir,
      'now-3',
    );
    const r = await recall(d, cwd);
    expect(recalled(r, /now lives at api\.harbour\.example\/v2/)).toBe(true);
    expect(recalled(r, /sync command under cmd\/sync/)).toBe(true);
  });

  it('remember without --type types the text by its kind; --type still decides', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = project(tmp(), 'api');
    const typeOf = async (args: string[]): Promise<string> => {
      const r = await d.cli(['remember', ...args, '--project', cwd, '--json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { type: string }).type;
    };
    expect(await typeOf(['Never push to main directly.'])).toBe('instruction');
    expect(await typeOf(['The API listens on port 8080.'])).toBe('fact');
    expect(await typeOf(["Let's go with Postgres for the job queue."])).toBe('decision');
    expect(await typeOf(['Always run the linter first.', '--type', 'note'])).toBe('note');
  });
});

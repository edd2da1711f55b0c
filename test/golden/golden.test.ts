/**
 * State files as earlier releases wrote them (test/golden/<version>/, made by generate.ts) must be
 * read by this build: a daemon started on a copy of each reports the tasks, outputs, memories,
 * sessions and dreams that release reported, settles the task that ended while it was down, ingests
 * the session end spooled meanwhile, continues the task ids, and moves nothing aside as corrupt.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, until, type TestDaemon } from '../helpers/daemon.js';
import { GOLDEN_PROJECT, HOME_TOKEN, type GoldenExpectation } from './expectations.js';

const newDaemon = daemonsPerTest(afterEach);
const versions = readdirSync(import.meta.dirname)
  .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

/** The release's files under the daemon's home, @HOME@ replaced by that home. */
function install(version: string, d: TestDaemon): GoldenExpectation {
  const from = join(import.meta.dirname, version);
  const copy = (src: string, dst: string): void => {
    for (const name of readdirSync(src)) {
      const s = join(src, name);
      const t = join(dst, name);
      if (lstatSync(s).isDirectory()) copy(s, t);
      else {
        mkdirSync(dirname(t), { recursive: true, mode: 0o700 });
        const text = readFileSync(s, 'utf8');
        if (text.includes(HOME_TOKEN)) writeFileSync(t, text.split(HOME_TOKEN).join(d.home), { mode: 0o600 });
        else cpSync(s, t);
      }
    }
  };
  for (const dir of ['state', 'transcripts']) copy(join(from, dir), join(d.home, dir));
  return JSON.parse(readFileSync(join(from, 'expected.json'), 'utf8').split(HOME_TOKEN).join(d.home)) as GoldenExpectation;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f));
}

describe('golden state files', () => {
  it('has the files of at least one release', () => {
    expect(versions.length).toBeGreaterThan(0);
  });

  describe.each(versions)('written by %s', (version) => {
    it('a daemon of this build starts on them and reads every one', async () => {
      const d = newDaemon({ memory: { extractor: 'heuristic' }, dream: { schedule: false } });
      const want = install(version, d);
      await d.start();
      const json = async <T>(args: string[]): Promise<T> => {
        const r = await d.cli([...args, '--json']);
        expect(r.stderr, `nightshift ${args.join(' ')}`).toBe('');
        return JSON.parse(r.stdout) as T;
      };

      // Tasks: as that release reported them; the one that ended while no daemon ran, settled from its exit file.
      const tasks = await until(async () => {
        const list = await json<Array<Record<string, unknown>>>(['ps', '--all']);
        return list.every((t) => t['status'] !== 'running') && list;
      });
      expect(tasks.map((t) => ({ id: t['id'], name: t['name'], command: t['command'], status: t['status'], exitCode: t['exitCode'] ?? null, ...(t['signal'] ? { signal: t['signal'] } : {}) }))).toEqual(
        want.tasks.map(({ output: _output, ...t }) => t),
      );
      for (const t of want.tasks) expect((await d.cli(['output', t.id])).stdout, `output of task ${t.id}`).toBe(t.output);
      expect((await d.cli(['run', '--', 'true'])).stdout.trim()).toBe(want.nextTaskId);

      // Memories: the same records, active and archived, the pinned one still pinned. The spooled
      // session was taken in at start: what the ranker kept of it is new, from that session alone.
      type M = { id: string; content: string; scope: string; stable: boolean; archivedAt?: string; project?: string; pinned: boolean; sources: { sessionId: string }[] };
      const active = await json<M[]>(['memories', 'list', '--project', GOLDEN_PROJECT]);
      const archived = await json<M[]>(['memories', 'list', '--project', GOLDEN_PROJECT, '--archived']);
      const spooled = want.sessions.filter((s) => s !== want.ingestedSession);
      const fromSpool = (m: M) => m.sources.length > 0 && m.sources.every((s) => spooled.includes(s.sessionId));
      for (const m of [...active, ...archived].filter(fromSpool)) expect(m).toMatchObject({ scope: 'project', project: GOLDEN_PROJECT });
      const seen = [...active, ...archived]
        .filter((m) => !fromSpool(m))
        .map((m) => ({ id: m.id, content: m.content, scope: m.scope, stable: m.stable, archived: m.archivedAt !== undefined, ...(m.project ? { project: m.project } : {}) }));
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect(seen.sort(byId)).toEqual([...want.memories].sort(byId));
      expect(active.find((m) => m.id === want.pinned)?.pinned).toBe(true);
      const recall = await d.cli(['recall', '--project', GOLDEN_PROJECT]);
      for (const id of [want.userRule, want.pinned]) expect(recall.stdout).toContain(want.memories.find((m) => m.id === id)?.content);

      // Sessions: the ingested one with how far it was read, the spooled one taken in at start.
      // (Its path changed with the home, and a session's key is its path: a re-ingest here would be
      // a new session, so the record is compared instead.)
      type S = GoldenExpectation['sessionRecord'];
      const sessions = await until(async () => {
        const list = await json<S[]>(['sessions']);
        return list.length === want.sessions.length && list.every((s) => s.state === 'ingested') && list;
      });
      expect(sessions.map((s) => s.sessionId).sort()).toEqual([...want.sessions].sort());
      expect(sessions.find((s) => s.sessionId === want.ingestedSession)).toMatchObject(want.sessionRecord);
      expect(readdirSync(d.paths.spoolDir)).toEqual([]);
      const hits = await json<Array<{ sessionId: string }>>(['search', 'invoice rounding', '--project', GOLDEN_PROJECT]);
      expect(hits.map((h) => h.sessionId)).toContain(want.ingestedSession);

      // Dreams: listed, and each report readable.
      const dreams = await json<Array<{ id: string }>>(['dream', 'log']);
      expect(dreams.map((r) => r.id)).toEqual(want.dreams);
      for (const id of want.dreams) expect(await json<{ id: string }>(['dream', 'show', id])).toMatchObject({ id });

      // What the dashboard browses, on the same files: history, sources, projects, pages, an edit, expanded reports.
      for (const m of [...active, ...archived]) {
        const h = await json<{ events: Array<{ kind: string }> }>(['memories', 'history', m.id]);
        expect(h.events[0]?.kind, `history of ${m.id}`).toBe('created');
        expect((await d.cli(['memories', 'sources', m.id, '--json'])).code, `sources of ${m.id}`).toBe(0);
      }
      const projects = await json<{ projects: Array<{ project: string; active: number }> }>(['memories', 'projects']);
      expect(projects.projects.find((p) => p.project === GOLDEN_PROJECT)?.active).toBe(active.filter((m) => m.scope === 'project').length);
      const page = await d.client.call('listMemories', { query: { project: GOLDEN_PROJECT, limit: 1 } });
      expect(page.total).toBe(active.length);
      expect((await d.client.call('sessions', { query: { limit: 1 } })).total).toBe(want.sessions.length);
      const first = active[0] as M;
      expect((await json<{ content: string }>(['memories', 'edit', first.id, `${first.content} (edited)`])).content).toBe(`${first.content} (edited)`);
      for (const id of want.dreams) expect((await d.client.call('getDream', { params: { id }, query: { expand: '1' } })).memories).toBeDefined();

      // Nothing was judged unreadable and moved aside.
      expect(filesUnder(d.paths.stateDir).filter((f) => f.includes('.corrupt-'))).toEqual([]);
      expect(d.log).not.toMatch(/corrupt|state_corrupt|unreadable/i);
      expect(existsSync(d.paths.stateFile)).toBe(true);
    });
  });
});

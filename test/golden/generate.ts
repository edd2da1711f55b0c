/**
 * Writes test/golden/<version>/: the state a daemon of this build leaves on disk after ordinary use,
 * and what a later daemon must report when it starts on it. Run once per release, from a clean
 * build (see README.md here):
 *
 *   npm run build && npx tsx test/golden/generate.ts
 *
 * Ordinary use: tasks that exited (0 and 3), were killed, took stdin, and one still running when
 * the daemon stopped that ended while it was down; memories of the user and a project (one pinned,
 * one forgotten); a Claude Code transcript ingested; a dream; a session end spooled by the hook
 * while the daemon was down. The temporary home's path is replaced by @HOME@ in every file.
 */
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestDaemon, until } from '../helpers/daemon.js';
import { GOLDEN_PROJECT, HOME_TOKEN, type GoldenExpectation } from './expectations.js';

const ROOT = resolve(import.meta.dirname, '../..');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const out = join(import.meta.dirname, version);
/** Not state: the lock of a live daemon, its log, the TCP token. */
const SKIP = new Set(['daemon.lock', 'daemon.log', 'token']);

async function main(): Promise<void> {
  if (existsSync(out) && !process.argv.includes('--force')) throw new Error(`${out} exists: the files of a release are never rewritten (--force to replace a draft)`);
  const d = new TestDaemon({ logLevel: 'info', memory: { extractor: 'heuristic' }, dream: { schedule: false } });
  try {
    await d.start();
    const cli = async (args: string[], input?: string) => {
      const r = await d.cli(args, input === undefined ? {} : { input });
      if (r.code !== 0) throw new Error(`nightshift ${args.join(' ')} → ${r.code}: ${r.stderr}`);
      return r.stdout;
    };
    const run = async (...args: string[]) => (await cli(['run', '--cwd', '/', ...args])).trim();

    // Tasks.
    const ok = await run('--name', 'golden-ok', '--', 'sh', '-c', 'echo hello golden');
    const failed = await run('--', 'sh', '-c', 'echo failing >&2; exit 3');
    const killed = await run('--', 'sleep', '300');
    const typed = await run('--', 'sh', '-c', 'read line; echo "read: $line"');
    const gate = join(d.home, 'gate');
    const late = await run('--name', 'golden-late', '--', 'sh', '-c', `echo started; while [ ! -e ${gate} ]; do sleep 0.05; done; echo finished; exit 5`);
    await d.cli(['wait', ok]);
    await d.cli(['wait', failed]);
    await cli(['send', typed, 'typed input', '--eof']);
    await d.cli(['wait', typed]);
    await until(async () => (await d.client.get(killed)).state === 'running' && (await d.client.get(late)).outputBytes > 0);
    await sleep(200); // the command's pid recorded, so kill reaches its group
    await cli(['kill', killed]);
    await d.cli(['wait', killed]);

    // Memories.
    const rule = (await cli(['remember', 'Always run the linter before pushing.', '--user', '--stable', '--type', 'instruction'])).trim();
    const port = (await cli(['remember', 'The API of the golden project runs on port 8080.', '--project', GOLDEN_PROJECT, '--type', 'fact'])).trim();
    const gone = (await cli(['remember', 'The staging database is down today.', '--project', GOLDEN_PROJECT])).trim();
    await cli(['memories', 'pin', port]);
    await cli(['memories', 'forget', gone]);

    // A transcript ingested (kept in the home, so its offsets stay meaningful) and a dream.
    mkdirSync(join(d.home, 'transcripts'));
    const transcript = join(d.home, 'transcripts', 'billing.jsonl');
    copyFileSync(join(ROOT, 'test/fakes/transcripts/claude-code.jsonl'), transcript);
    const ingested = JSON.parse(await cli(['ingest', transcript, '--project', GOLDEN_PROJECT, '--json'])) as { sessionId: string };
    const dream = JSON.parse(await cli(['dream', '--json'])) as { id: string };

    // What this daemon reports, before it stops.
    const tasks = await d.client.list(true);
    const memories = [...(await d.client.memories({ project: GOLDEN_PROJECT })), ...(await d.client.memories({ project: GOLDEN_PROJECT, archived: true }))];
    const sessions = JSON.parse(await cli(['sessions', '--json'])) as Array<GoldenExpectation['sessionRecord']>;
    const record = sessions.find((s) => s.sessionId === ingested.sessionId);
    if (!record) throw new Error('the ingested session is not listed');
    if ((await d.stop()) !== 0) throw new Error(`daemon stopped badly: ${d.log}`);

    // While it is down: the running task ends, and a session end is spooled by the hook.
    writeFileSync(gate, '');
    await until(() => existsSync(join(d.paths.tasksDir, late, 'exit')));
    const spooledPath = join(d.home, 'transcripts', 'spooled.jsonl');
    copyFileSync(join(ROOT, 'test/fakes/transcripts/messages.jsonl'), spooledPath);
    const hook = await d.cli(['hook', 'session-end'], { input: JSON.stringify({ session_id: 'golden-spooled', transcript_path: spooledPath, cwd: GOLDEN_PROJECT, hook_event_name: 'SessionEnd' }) });
    if (hook.code !== 0 || readdirSync(d.paths.spoolDir).length !== 1) throw new Error(`hook did not spool: ${hook.stderr}`);

    const expected: GoldenExpectation = {
      version,
      generatedAt: new Date().toISOString(),
      nextTaskId: String(Math.max(...tasks.map((t) => Number(t.id))) + 1),
      tasks: await Promise.all(
        tasks.map(async (t) => {
          // The one left running ended while the daemon was down: a new daemon reads its exit.
          const after = t.id === late ? { status: 'exited' as const, exitCode: 5, output: 'started\nfinished\n' } : { status: t.status, exitCode: t.exitCode ?? null, output: readFileSync(t.outputPath, 'utf8') };
          return { id: t.id, name: t.name, command: t.command, ...after, ...(t.status === 'killed' ? { signal: t.signal } : {}) };
        }),
      ),
      memories: memories.map((m) => ({ id: m.id, content: m.content, scope: m.scope, stable: m.stable, archived: m.archivedAt !== undefined, ...(m.project ? { project: m.project } : {}) })),
      pinned: port,
      userRule: rule,
      sessions: [...sessions.map((s) => s.sessionId), 'golden-spooled'],
      ingestedSession: ingested.sessionId,
      sessionRecord: { sessionId: record.sessionId, path: record.path, project: record.project, state: record.state, offset: record.offset, size: record.size, messages: record.messages },
      dreams: [dream.id],
    };

    rmSync(out, { recursive: true, force: true });
    for (const dir of ['state', 'transcripts']) copyTree(join(d.home, dir), join(out, dir), d.home);
    writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2).split(d.home).join(HOME_TOKEN)}\n`);
    console.log(`wrote ${relative(ROOT, out)}: ${tasks.length} tasks, ${memories.length} memories, ${expected.sessions.length} sessions, 1 dream`);
  } finally {
    await d.cleanup();
  }
}

/** Regular files only (no FIFOs, sockets, locks, logs), the home's path replaced by @HOME@. */
function copyTree(from: string, to: string, home: string): void {
  for (const name of readdirSync(from)) {
    if (SKIP.has(name)) continue;
    const src = join(from, name);
    const dst = join(to, name);
    const st = lstatSync(src);
    if (st.isDirectory()) copyTree(src, dst, home);
    else if (st.isFile()) {
      mkdirSync(dirname(dst), { recursive: true });
      const text = readFileSync(src, 'utf8');
      if (text.includes(home)) writeFileSync(dst, text.split(home).join(HOME_TOKEN));
      else cpSync(src, dst);
    }
  }
}

await main();

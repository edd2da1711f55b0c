/**
 * For the restart benchmark: a home with many memories and episodes written straight to disk, a
 * daemon process of any build started on it and timed to its first answer, and a build of another
 * git ref (the baseline) in a temporary worktree.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../../src/client/api-client.js';
import type { StatusResponse } from '../../src/api/status.js';
import { resolvePaths, type Paths } from '../../src/paths.js';
import { defer, killPid, tempDir } from './cleanup.js';
import { int, memorySentence, pick, recallQuery, rng, type Rand } from './memgen.js';

const REPO = resolve(import.meta.dirname, '../..');

/** `count` episodes in session files of `perSession` each, spread over `projects` projects. */
export function writeEpisodes(paths: Paths, count: number, perSession: number, projects: string[], seed: number): void {
  const r = rng(seed);
  mkdirSync(paths.episodesDir, { recursive: true, mode: 0o700 });
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let s = 0; s * perSession < count; s++) {
    const sessionId = `bench-${s}`;
    const project = projects[s % projects.length] as string;
    const lines: string[] = [];
    for (let i = 0; i < perSession && s * perSession + i < count; i++) {
      const user = i % 2 === 0;
      lines.push(
        JSON.stringify({
          sessionId,
          messageId: `m${i}`,
          project,
          role: user ? 'user' : 'assistant',
          kind: 'text',
          text: turnText(r, user),
          at: new Date(start + s * 3_600_000 + i * 30_000).toISOString(),
        }),
      );
    }
    const key = createHash('sha256').update(`/bench/transcripts/${sessionId}.jsonl`).digest('hex').slice(0, 16);
    writeFileSync(join(paths.episodesDir, `${key}.jsonl`), `${lines.join('\n')}\n`, { mode: 0o600 });
  }
}

function turnText(r: Rand, user: boolean): string {
  if (user) return `${recallQuery(r)}? ${memorySentence(r).text}`;
  return `${pick(r, ['Done.', 'I checked it.', 'Fixed.', 'Looking into it.', 'Here is what I found:'])} ${memorySentence(r).text} ${int(r, 0, 1) ? memorySentence(r).text : ''}`.trim();
}

export function writeConfig(paths: Paths): void {
  mkdirSync(resolve(paths.configFile, '..'), { recursive: true });
  writeFileSync(paths.configFile, JSON.stringify({ logLevel: 'info', transcripts: { watch: false }, memory: { extractor: 'heuristic' } }));
}

export const homePaths = (home: string): Paths => resolvePaths({ NIGHTSHIFT_HOME: home });

export interface Running {
  pid: number;
  client: ApiClient;
  /** From spawn to the first answer of `status`. */
  firstAnswerMs: number;
  stop(): Promise<void>;
}

/** Starts `node CLI daemon` on the home and polls `status` every 5 ms until it answers. */
export async function startDaemon(cli: string, home: string, deadlineMs = 90_000): Promise<Running> {
  const env = { ...process.env, NIGHTSHIFT_HOME: home, NIGHTSHIFT_NO_AUTOSTART: '1' };
  const t0 = performance.now();
  const proc = spawn(process.execPath, [cli, 'daemon'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const pid = proc.pid;
  if (pid === undefined) throw new Error('the daemon did not spawn');
  const drop = defer(() => killPid(pid));
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const client = new ApiClient({ socket: homePaths(home).socket });
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`daemon exited with ${proc.exitCode}: ${stderr}`);
    if (performance.now() - t0 > deadlineMs) {
      killPid(pid);
      throw new Error(`daemon did not answer within ${deadlineMs} ms`);
    }
    try {
      await client.status();
      break;
    } catch {
      await sleep(5);
    }
  }
  const firstAnswerMs = performance.now() - t0;
  return {
    pid,
    client,
    firstAnswerMs,
    async stop() {
      const timer = setTimeout(() => killPid(pid), 30_000);
      killPid(pid, 'SIGTERM');
      await exited;
      clearTimeout(timer);
      drop();
    },
  };
}

/** Polls status until `done` says so. */
export async function waitStatus(client: ApiClient, done: (s: StatusResponse) => boolean, deadlineMs = 240_000): Promise<StatusResponse> {
  const t0 = performance.now();
  for (;;) {
    const s = await client.status();
    if (done(s)) return s;
    if (performance.now() - t0 > deadlineMs) throw new Error(`status never reached the expected state: ${JSON.stringify(s.memory)}`);
    await sleep(50);
  }
}

/**
 * The CLI of the baseline: `NIGHTSHIFT_BASELINE_CLI`, or `NIGHTSHIFT_BASELINE_REF` (default: where
 * this branch left main, `git merge-base HEAD main`) checked out in a temporary worktree and built
 * there with this repo's node_modules: with its own build script (`scripts/build.ts`, esbuild) when
 * it has one, as a release is built, else with tsc.
 */
export function baselineCli(say: (line: string) => void): { cli: string; ref: string; remove: () => void } {
  const given = process.env.NIGHTSHIFT_BASELINE_CLI;
  if (given) {
    // Named by the commit of the checkout it was built in, when it is one.
    const head = spawnSync('git', ['-C', resolve(given, '../..'), 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
    return { cli: given, ref: head.status === 0 ? head.stdout.trim() : given, remove: () => undefined };
  }
  const ref = process.env.NIGHTSHIFT_BASELINE_REF ?? git(['merge-base', 'HEAD', 'main']);
  const work = tempDir('ns-bench-baseline-');
  const dir = join(work.dir, 'tree');
  git(['worktree', 'add', '--detach', dir, ref]);
  const remove = () => {
    spawnSync('git', ['-C', REPO, 'worktree', 'remove', '--force', dir]);
    work.remove();
  };
  const drop = defer(remove);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  say(`building the baseline (${ref} = ${git(['rev-parse', '--short', ref])}) in ${dir}`);
  const build = existsSync(join(dir, 'scripts/build.ts'))
    ? spawnSync(process.execPath, [join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts'], { cwd: dir, encoding: 'utf8' })
    : spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  if (build.status !== 0 || !existsSync(join(dir, 'dist/cli.js'))) {
    drop();
    remove();
    throw new Error(`baseline build failed: ${build.stdout}${build.stderr}`);
  }
  return {
    cli: join(dir, 'dist/cli.js'),
    ref: ref.slice(0, 9),
    remove: () => {
      drop();
      remove();
    },
  };
}

/**
 * The baseline as a peer for benchmarks that also run without one: built as `baselineCli` says when
 * NIGHTSHIFT_BASELINE_CLI or NIGHTSHIFT_BASELINE_REF is set, or when this checkout is not main's
 * HEAD (then the peer is where it left main); undefined (and a line saying how to get one) on main
 * itself, where the default baseline would be this very build.
 */
export function optionalBaseline(say: (line: string) => void): ReturnType<typeof baselineCli> | undefined {
  if (!process.env.NIGHTSHIFT_BASELINE_CLI && !process.env.NIGHTSHIFT_BASELINE_REF) {
    let same = true;
    try {
      same = git(['merge-base', 'HEAD', 'main']) === git(['rev-parse', 'HEAD']);
    } catch {
      // not a git checkout, or no main branch: no default baseline
    }
    if (same) {
      say(
        'no baseline build (this is main itself): set NIGHTSHIFT_BASELINE_REF=<commit> or NIGHTSHIFT_BASELINE_CLI=<its dist/cli.js> to time one beside this build',
      );
      return undefined;
    }
  }
  return baselineCli(say);
}

function git(args: string[]): string {
  const r = spawnSync('git', ['-C', REPO, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

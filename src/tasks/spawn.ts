import { accessSync, closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { statPath } from '../sys/path-error.js';
import { delimiter, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';

/**
 * The per-task wrapper: a POSIX shell, not a Node process. It keeps a writer on the stdin FIFO open
 * (so the task never sees EOF between two `send`s, even while the daemon restarts), starts the command
 * as the leader of its own process group and session (setsid) with RLIMIT_FSIZE as the output cap,
 * waits for it and records its status in the task directory. SIGUSR1 closes its writer: `send --eof`.
 * The read end is opened here, before any SIGUSR1 could close the writer, so the command's open of
 * its stdin never blocks. The trap is a command, not '' (ignored), so the command itself gets the
 * default SIGUSR1 back at exec. A SIGUSR1 that interrupts `wait` makes wait return 138 without
 * reaping the child, so it waits again. Its own files (child.pid, exit) are 0600: the umask is
 * tightened only once the command has been forked, so the command keeps the caller's.
 *
 * Time to the command's pid is what `run` waits for, so the wrapper forks nothing it can do itself:
 * child.pid and exit are written in place by one `echo` (one write; readers take a number only with
 * its newline, so never a half-written file), not through a temp file and mv (a fork and an exec of
 * coreutils each, ~2 ms, one of them on every task's exit). mkfifo runs with LC_ALL=C, sparing it
 * the locale files. The pid also goes to fd 3, a pipe the daemon reads, so the daemon learns it the
 * moment it exists instead of polling the file; SIGPIPE is ignored from then on (the command is
 * already forked and keeps the default), so a daemon gone meanwhile cannot kill the wrapper.
 */
const WRAPPER = `d=$1; cap=$2; mode=$3; setsid=$4; mkfifo=$5; shift 5
t=0
trap 't=1; exec 4>&-' USR1
if [ "$mode" = fifo ]; then
  LC_ALL=C "$mkfifo" -m 600 "$d/stdin" || exit 125
  exec 4<>"$d/stdin" 5<"$d/stdin"
  [ "$t" = 1 ] && exec 4>&-
  (ulimit -f "$cap" && exec "$setsid" "$@" <&5 3>&- 4>&- 5<&-) &
  exec 5<&-
else
  (ulimit -f "$cap" && exec "$setsid" "$@" </dev/null 3>&-) &
fi
pid=$!
umask 077
trap '' PIPE
echo "$pid" >"$d/child.pid"
echo "$pid" >&3
exec 3>&- >/dev/null 2>&1
while :; do
  wait "$pid"; s=$?
  if [ "$t" = 1 ] && [ "$s" = 138 ]; then t=2; continue; fi
  break
done
echo "$s" >"$d/exit"
exit "$s"
`;

export interface SpawnSpec {
  dir: string;
  outputPath: string;
  command: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: boolean;
  capBytes: number;
}

export interface Spawned {
  wrapperPid: number;
  /** Resolves with the command's pid as the wrapper reports it, or undefined when the wrapper ended without reporting it. */
  childPid: Promise<number | undefined>;
  /**
   * Resolves when the wrapper has exited, with its exit code (the command's status, which it has
   * also written to the task directory unless that write failed), or null when a signal ended it.
   */
  exited: Promise<number | null>;
}

/** A single argument with shell syntax in it ("make && make test") runs through sh -c. */
export function toArgv(command: string[]): string[] {
  if (command.length === 1 && /[\s|&;<>()$`\\"'*?[\]#~=%{}!]/.test(command[0] ?? '')) {
    return ['/bin/sh', '-c', command[0] ?? ''];
  }
  return command;
}

/** Checks what would otherwise only fail inside the wrapper, so `run` can say what is wrong. */
export function preflight(argv: string[], cwd: string, env: Record<string, string>): void {
  const dir = statPath(cwd);
  if (!dir.ok) throw new AppError('invalid_cwd', `working directory ${cwd} ${dir.why}`);
  if (!dir.stat.isDirectory()) throw new AppError('invalid_cwd', `working directory ${cwd} is not a directory`);
  const cmd = argv[0] ?? '';
  if (cmd === '') throw new AppError('command_not_found', 'command is empty');
  const candidates = cmd.includes('/')
    ? [resolve(cwd, cmd)]
    : (env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => resolve(cwd, d, cmd));
  for (const file of candidates) {
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return;
    } catch {
      // try the next PATH entry
    }
  }
  if (!cmd.includes('/')) throw new AppError('command_not_found', `command not found: ${cmd} (searched the task's PATH)`);
  const file = statPath(resolve(cwd, cmd));
  throw new AppError('command_not_found', file.ok || file.errno === 'ENOENT' ? `${cmd} is not an executable file` : `${cmd} ${file.why}`);
}

/** Absolute paths of the helpers the wrapper uses, so a task's own PATH cannot break the wrapper. */
const tools = {
  setsid: findTool('setsid'),
  mkfifo: findTool('mkfifo'),
};

function findTool(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // keep looking
    }
  }
  return name;
}

export function spawnTask(spec: SpawnSpec): Spawned {
  mkdirSync(spec.dir, { recursive: true, mode: 0o700 });
  const out = openSync(spec.outputPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  try {
    const capBlocks = Math.ceil(spec.capBytes / 512); // POSIX sh's ulimit -f counts 512-byte blocks
    // node:child_process rather than execa here: the output fd must go to the wrapper as is, and
    // execa's typings only admit its own stream handling for stdout/stderr.
    const child = spawn(
      '/bin/sh',
      ['-c', WRAPPER, 'nightshift-task', spec.dir, String(capBlocks), spec.stdin ? 'fifo' : 'none', tools.setsid, tools.mkfifo, ...toArgv(spec.command)],
      {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        // fd 3: where the wrapper reports the command's pid.
        stdio: ['ignore', out, out, 'pipe'],
      },
    );
    let spawnError: Error | undefined;
    child.once('error', (err) => {
      spawnError = err;
    });
    if (child.pid === undefined) {
      throw new AppError('spawn_failed', `could not start the task wrapper: ${spawnError?.message ?? 'no pid'}`);
    }
    child.unref();
    const report = child.stdio[3] as Readable;
    (report as Readable & { unref?: () => void }).unref?.();
    return { wrapperPid: child.pid, childPid: readPid(report), exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  } finally {
    closeSync(out);
  }
}

/** The first line of the report pipe as a pid; undefined when it closes (or fails) without one. */
function readPid(report: Readable): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const done = (pid: number | undefined) => {
      report.destroy();
      resolve(pid);
    };
    report.setEncoding('ascii');
    report.on('data', (chunk: string) => {
      text += chunk;
      const m = /^([0-9]+)\n/.exec(text);
      if (m) done(Number(m[1]));
    });
    report.once('end', () => done(undefined));
    report.once('error', () => done(undefined));
  });
}

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second, the unit of utime/stime in /proc/<pid>/stat. */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export interface CpuSample {
  /** utime+stime from /proc/<pid>/stat, in ms (resolution: one clock tick, 10 ms at CLK_TCK=100). */
  statMs: number;
  /** Sum of sum_exec_runtime (/proc/<pid>/task/<tid>/schedstat) over the live threads, in ms (ns resolution). */
  schedMs: number;
}

export function cpu(pid: number): CpuSample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat; index 0 here is field 3 (state).
  const ticks = Number(fields[11]) + Number(fields[12]);
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // thread ended between the listing and the read
    }
  }
  return { statMs: (ticks * 1000) / CLK_TCK, schedMs: ns / 1e6 };
}

export const cpuDelta = (a: CpuSample, b: CpuSample): CpuSample => ({ statMs: b.statMs - a.statMs, schedMs: b.schedMs - a.schedMs });

/** A `Key:   123 kB` field of /proc/<pid>/status, in KiB. */
export function statusKiB(pid: number, key: string): number {
  return kib(readFileSync(`/proc/${pid}/status`, 'utf8'), key);
}

export interface Memory {
  rssKiB: number;
  /** Proportional set size: each shared page divided among the processes mapping it. */
  pssKiB: number;
  /** Private_Clean + Private_Dirty: what the process alone holds (freed when it exits). */
  privateKiB: number;
}

/** Memory of a process from /proc/<pid>/smaps_rollup, in KiB. */
export function memory(pid: number): Memory {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return { rssKiB: kib(text, 'Rss'), pssKiB: kib(text, 'Pss'), privateKiB: kib(text, 'Private_Clean') + kib(text, 'Private_Dirty') };
}

/** Busy and total jiffies of the whole machine, from the first line of /proc/stat. */
export function machineJiffies(): { busy: number; total: number } {
  const cols = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  const total = cols.reduce((a, b) => a + b, 0);
  return { busy: total - (cols[3] ?? 0) - (cols[4] ?? 0), total };
}

function kib(text: string, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
  if (!m) throw new Error(`no ${key} field`);
  return Number(m[1]);
}

/** Free bytes on the filesystem holding `dir`, from df (the brief asks to check before writing GiBs). */
export function freeBytes(dir: string): number {
  const out = execFileSync('df', ['-Pk', dir], { encoding: 'utf8' }).trim().split('\n');
  const cols = (out[out.length - 1] ?? '').split(/\s+/);
  return Number(cols[3]) * 1024;
}

/**
 * Counts live processes whose argv is exactly `argv` (zombies have no cmdline and are not counted).
 * Only pids above `abovePid` are read (pids grow until they wrap at pid_max; the caller passes 0 near
 * the wrap), so one sample costs a /proc listing and a few reads.
 */
export function countByArgv(argv: readonly string[], abovePid: number): number {
  const want = `${argv.join('\0')}\0`;
  let n = 0;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!(pid > abovePid)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === want) n += 1;
    } catch {
      // ended between the listing and the read
    }
  }
  return n;
}

/** A pid to pass to countByArgv: new processes are above it, unless pids are about to wrap. */
export function pidFloor(current: number): number {
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
  return current > max - 100_000 ? 0 : current;
}

import { readFileSync, readdirSync } from 'node:fs';

/**
 * Facts about processes read from /proc. A pid alone is not an identity (pids are recycled), so a
 * process is identified by pid + start time (field 22 of /proc/<pid>/stat, in clock ticks since boot)
 * + the boot id.
 */
export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
  startTicks: number;
}

export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm may hold spaces and parentheses: the fields after it start after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = rest[0] ?? '?';
  return {
    pid,
    state,
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    startTicks: Number(rest[19]),
  };
}

let cachedBootId: string | undefined;
export function bootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = 'unknown';
    }
  }
  return cachedBootId;
}

/** True when the process with this pid is the one that started at startTicks and has not exited. */
export function isSameProcessAlive(pid: number, startTicks: number): boolean {
  const st = readStat(pid);
  return st !== null && st.startTicks === startTicks && st.state !== 'Z' && st.state !== 'X';
}

/** Pids of every live process in the given process groups, from one scan of /proc. */
export function pidsByGroup(groups: ReadonlySet<number>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (groups.size === 0) return out;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const st = readStat(Number(name));
    if (!st || !groups.has(st.pgrp) || st.state === 'Z') continue;
    const list = out.get(st.pgrp) ?? [];
    list.push(st.pid);
    out.set(st.pgrp, list);
  }
  return out;
}

// read(2) is syscall 0 on x86_64 and 63 on arm64 (the generic table).
const READ_SYSCALL = process.arch === 'arm64' ? 63 : process.arch === 'x64' ? 0 : -1;

/**
 * True when the process sits in read(2) on fd 0, i.e. it waits for input on its stdin.
 * /proc/<pid>/syscall holds "nr arg1 arg2 …" while the process is blocked in a system call.
 */
export function isBlockedReadingStdin(pid: number): boolean {
  if (READ_SYSCALL < 0) return false;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/syscall`, 'utf8');
  } catch {
    return false;
  }
  const [nr, fd] = text.trim().split(' ');
  return Number(nr) === READ_SYSCALL && fd !== undefined && Number.parseInt(fd, 16) === 0;
}

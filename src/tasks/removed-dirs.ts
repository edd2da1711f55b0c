/**
 * How a removed task's directory goes: hidden (renamed) before the state drops the task, deleted
 * after, and settled at the next start when a daemon died in between.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from '../errors.js';

/**
 * A task being removed has its directory renamed to this prefix and its id before the state drops
 * it, and deleted after: a daemon killed at any point leaves either the task listed with its
 * directory (put back at the next start) or neither, never a half directory that would look like a
 * task (output.log without meta.json, or a meta.json taken back as a task the state never listed).
 * Ids are never reused, so the name is free.
 */
const REMOVED = '.removed-';
const hidden = (tasksDir: string, id: string): string => join(tasksDir, `${REMOVED}${id}`);

/** Takes the task's directory out of sight (one rename); false when it has none. */
export async function hideTaskDir(tasksDir: string, id: string): Promise<boolean> {
  try {
    await rename(join(tasksDir, id), hidden(tasksDir, id));
    return true;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return false;
    throw err;
  }
}

/** Puts a hidden directory back: the removal did not go through. */
export function unhideTaskDir(tasksDir: string, id: string): Promise<void> {
  return rename(hidden(tasksDir, id), join(tasksDir, id));
}

/** Deletes a hidden directory once the state no longer lists its task. */
export function deleteHiddenTaskDir(tasksDir: string, id: string): Promise<void> {
  return rm(hidden(tasksDir, id), { recursive: true, force: true });
}

/**
 * At start, before anything reads the directories, finishes what a daemon that died in the middle
 * of a removal left: the directory of a task the state still lists goes back; any other is deleted.
 */
export function settleHiddenTaskDirs(tasksDir: string, listed: (id: string) => boolean): void {
  let names: string[] = [];
  try {
    names = readdirSync(tasksDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(REMOVED)) continue;
    const id = name.slice(REMOVED.length);
    if (listed(id) && !existsSync(join(tasksDir, id))) renameSync(join(tasksDir, name), join(tasksDir, id));
    else rmSync(join(tasksDir, name), { recursive: true, force: true });
  }
}

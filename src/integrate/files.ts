import {
  closeSync,
  copyFileSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { AppError, isErrno } from '../errors.js';

/** The file's text, or undefined when it does not exist. */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw new AppError('config_invalid', `cannot read ${path}: ${(err as Error).message}`);
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses a JSON settings file that must hold an object; refuses anything else, naming the file. */
export function parseJsonObject(path: string, text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new AppError('config_invalid', `${path} is not valid JSON (${(err as Error).message}); fix it first, nothing was changed`);
  }
  if (!isObject(v)) throw new AppError('config_invalid', `${path} does not hold a JSON object; fix it first, nothing was changed`);
  return v;
}

export function toJsonText(v: JsonObject): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

/** `<file>.bak-2025-01-31T12-00-00-000Z`: sorts by time, never overwrites an older backup. */
export function backupPath(path: string, now = new Date()): string {
  return `${path}.bak-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Replaces the file's content: a backup of the old one first (when there was one), then temp file +
 * fsync + rename, keeping its mode; a symlinked file is written through the link. Refuses when the
 * file changed since it was read (another program writing it right now).
 */
export function writeWithBackup(path: string, before: string | undefined, after: string): { backup?: string } {
  if (readText(path) !== before) throw new AppError('conflict', `${path} changed while nightshift was editing it; run the command again`);
  let target = path;
  let mode = 0o600;
  let backup: string | undefined;
  if (before !== undefined) {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
    backup = backupPath(path);
    copyFileSync(target, backup, constants.COPYFILE_EXCL);
  } else {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const tmp = `${target}.nightshift-${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, after);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, target);
  return backup ? { backup } : {};
}

/** Removes a file nightshift's edit left saying nothing, after a backup; refuses when it changed since it was read. */
export function removeWithBackup(path: string, before: string): { backup: string } {
  if (readText(path) !== before) throw new AppError('conflict', `${path} changed while nightshift was editing it; run the command again`);
  const backup = backupPath(path);
  copyFileSync(realpathSync(path), backup, constants.COPYFILE_EXCL);
  unlinkSync(path);
  return { backup };
}

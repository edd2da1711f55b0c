/**
 * A state file that cannot be read is kept, never deleted: moved aside to one name format,
 * `<file>.corrupt-<UTC time>` with `:` and `.` written `-` (`monitors.json.corrupt-2026-11-26T02-07-00-000Z`),
 * so the copies of one file sort by time and the name is valid on any file system.
 */
import { renameSync } from 'node:fs';
import { now } from '../clock.js';

/** Where `file` goes when it is moved aside at `at`. */
export function quarantinePath(file: string, at: Date = now()): string {
  return `${file}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
}

/** Moves `file` aside; where it went. */
export function quarantine(file: string): string {
  const movedTo = quarantinePath(file);
  renameSync(file, movedTo);
  return movedTo;
}

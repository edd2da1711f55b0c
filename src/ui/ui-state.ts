/**
 * The dashboard's state kept across restarts, <state>/ui.json (0600): whether it is on, as
 * `nightshift ui` / `nightshift ui --off` last left it, and its private path prefix.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isErrno } from '../errors.js';
import { writeFileAtomic } from '../sys/atomic-file.js';
import { PREFIX } from './prefix.js';

// A prefix that is not one of ours (edited by hand) is made anew; the on/off choice beside it stays.
const UiStateFile = z.object({ enabled: z.boolean().optional(), prefix: z.string().regex(PREFIX).optional().catch(undefined) });

export interface UiState {
  /** The recorded choice; null when none was made (the config's `ui.enabled` decides). */
  enabled: boolean | null;
  /** Where the app is served; null until the dashboard first listens (or the file is unreadable). */
  prefix: string | null;
}

export function readUiState(file: string): UiState {
  try {
    const r = UiStateFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return r.success ? { enabled: r.data.enabled ?? null, prefix: r.data.prefix ?? null } : { enabled: null, prefix: null };
  } catch (err) {
    if (isErrno(err, 'ENOENT') || err instanceof SyntaxError) return { enabled: null, prefix: null };
    throw err;
  }
}

export function writeUiState(file: string, state: UiState): Promise<void> {
  const out: z.infer<typeof UiStateFile> = {};
  if (state.enabled !== null) out.enabled = state.enabled;
  if (state.prefix !== null) out.prefix = state.prefix;
  return writeFileAtomic(file, `${JSON.stringify(out)}\n`);
}

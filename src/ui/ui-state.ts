/**
 * The dashboard's state kept across restarts, <state>/ui.json (0600): whether it is on, as
 * `nightshift ui` / `nightshift ui --off` last left it, and its private path prefix.
 */
import { z } from 'zod';
import { DurableJsonFile } from '../sys/state-file.js';
import { PREFIX } from './prefix.js';

// A prefix that is not one of ours (edited by hand) is made anew; the on/off choice beside it stays.
const UiStateFile = z.object({ enabled: z.boolean().optional(), prefix: z.string().regex(PREFIX).optional().catch(undefined) });

export interface UiState {
  /** The recorded choice; null when none was made (the config's `ui.enabled` decides). */
  enabled: boolean | null;
  /** Where the app is served; null until the dashboard first listens (or the file is unreadable). */
  prefix: string | null;
}

/** What was recorded; a file that cannot be read is moved aside (kept) and counts as no choice made. */
export function readUiState(file: string): UiState {
  const { data } = new DurableJsonFile(file, UiStateFile).readOrSetAside();
  return { enabled: data?.enabled ?? null, prefix: data?.prefix ?? null };
}

export function writeUiState(file: string, state: UiState): Promise<void> {
  const out: z.infer<typeof UiStateFile> = {};
  if (state.enabled !== null) out.enabled = state.enabled;
  if (state.prefix !== null) out.prefix = state.prefix;
  return new DurableJsonFile(file, UiStateFile).write(out);
}

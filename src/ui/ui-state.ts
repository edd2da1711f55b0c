/** Whether the dashboard is on, as `nightshift ui` / `nightshift ui --off` last left it: <state>/ui.json. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isErrno } from '../errors.js';
import { writeFileAtomic } from '../sys/atomic-file.js';

const UiState = z.object({ enabled: z.boolean() });

/** The recorded choice; null when none was made (the config's `ui.enabled` decides) or the file is unreadable. */
export function readUiState(file: string): boolean | null {
  try {
    const r = UiState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return r.success ? r.data.enabled : null;
  } catch (err) {
    if (isErrno(err, 'ENOENT') || err instanceof SyntaxError) return null;
    throw err;
  }
}

export function writeUiState(file: string, enabled: boolean): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify({ enabled })}\n`);
}

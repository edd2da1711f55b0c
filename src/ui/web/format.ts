/** How tasks read in the dashboard: their state, age and command. */
import { statusLabel, statusTone } from '../../api/task-status.js';
import { commandLine, humanBytes } from '../../api/format.js';
import type { Task } from '../../api/tasks.js';

/** Every flat status as a word, for the filter (derived from the one outcome table). */
export { STATUS_NAMES as STATE_LABELS } from '../../api/task-status.js';

/** A task's state in a word or two (the CLI's words). */
export const stateText = (t: Task): string => statusLabel(t);

/** A class per kind of state: ok, bad, live, idle. */
export const stateKind = (t: Task): string => statusTone(t);

// Times, sizes and commands read as the CLI prints them (api/format.ts), spaced for the page.
export { ago, durationText } from '../../api/format.js';
export const commandText = (t: Task): string => commandLine(t.command);
export const bytesText = (n: number): string => humanBytes(n, true);

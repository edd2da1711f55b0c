import { withFlatStatus } from '../api/task-json.js';

/** Its own module so the fast path (task-actions) prints JSON without loading the table code and string-width. Tasks keep their flat status. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, withFlatStatus, 2)}\n`);
}

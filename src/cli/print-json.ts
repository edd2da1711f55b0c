/** Its own module so the fast path (task-actions) prints JSON without loading the table code and string-width. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** `npm run docs:api`: rewrites the API table in docs/api.md from the endpoint table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withApiTable } from './api-table.js';

const file = new URL('../docs/api.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withApiTable(before);
if (after === before) {
  process.stdout.write('docs/api.md: the API table is up to date\n');
} else {
  writeFileSync(file, after);
  process.stdout.write('docs/api.md: the API table was rewritten\n');
}

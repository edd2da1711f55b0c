/** `npm run docs:api`: rewrites the API table in README.md from the endpoint table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withApiTable } from './api-table.js';

const file = new URL('../README.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withApiTable(before);
if (after === before) {
  process.stdout.write('README.md: the API table is up to date\n');
} else {
  writeFileSync(file, after);
  process.stdout.write('README.md: the API table was rewritten\n');
}

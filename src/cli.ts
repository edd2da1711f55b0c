#!/usr/bin/env node
/**
 * The binary. The hot commands (run, output, wait, ingest, hooks) go by the fast path, which loads neither
 * commander nor zod; everything else, and whatever the fast path does not take, loads the full CLI.
 * (Built as CommonJS, see scripts/build.ts: no top-level await here.)
 */
import { runFast } from './cli/fast.js';

// A reader that stops early (`nightshift ps | head -1`) is not an error: end quietly, keeping the exit code.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit();
});

void (async () => {
  if (await runFast(process.argv.slice(2))) return;
  const { runCli } = await import('./cli/main.js');
  await runCli(process.argv);
})();

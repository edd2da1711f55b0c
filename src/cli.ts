#!/usr/bin/env node
/**
 * The binary. The hot commands (run, output, wait, hooks) go by the fast path, which loads neither
 * commander nor zod; everything else, and whatever the fast path does not take, loads the full CLI.
 * (Built as CommonJS, see scripts/build.ts: no top-level await here.)
 */
import { runFast } from './cli/fast.js';

void (async () => {
  if (await runFast(process.argv.slice(2))) return;
  const { runCli } = await import('./cli/main.js');
  await runCli(process.argv);
})();

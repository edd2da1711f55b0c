/**
 * The shared scorer (real-sessions/score.mjs) runs `<checkout>/dist/cli.js` with a config of its
 * own ({transcripts: {watch: false}}) and a temporary HOME. To score another extractor without
 * touching the scorer, it is given a stand-in checkout whose dist/cli.js adds `memory` settings to
 * that config file before it runs the real CLI, and points the Claude CLI at the person's own login
 * (CLAUDE_CONFIG_DIR, since HOME is a temp dir there). Removed by the caller.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export function scorerCheckout(realCheckout: string, memory: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ns-score-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'package.json'), '{ "type": "commonjs" }\n');
  const claudeConfig = process.env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude');
  writeFileSync(
    join(dir, 'dist', 'cli.js'),
    `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const home = process.env.NIGHTSHIFT_HOME;
if (home) {
  const file = path.join(home, 'config', 'config.json');
  let config = {};
  try { config = JSON.parse(fs.readFileSync(file, 'utf8')); } catch {}
  config.memory = { ...(config.memory || {}), ...${JSON.stringify(memory)} };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(config));
}
if (!process.env.CLAUDE_CONFIG_DIR) process.env.CLAUDE_CONFIG_DIR = ${JSON.stringify(claudeConfig)};
require(${JSON.stringify(join(realCheckout, 'dist', 'cli.js'))});
`,
  );
  return dir;
}

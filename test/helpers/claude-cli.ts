/**
 * The real `claude` (the pinned devDependency) set up to talk only to a fake Messages server: HOME
 * and CLAUDE_CONFIG_DIR in a temp dir (the machine's ~/.claude is never read or written), a fake key,
 * the base URL of the fake. The backend itself adds the switches that stop all other traffic.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CLAUDE = resolve(import.meta.dirname, '../../node_modules/.bin/claude');

export interface ClaudeHome {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function claudeHome(baseUrl: string): ClaudeHome {
  const dir = mkdtempSync('/tmp/ns-claude-');
  return {
    dir,
    env: { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, '.claude'), PATH: process.env['PATH'] ?? '', ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: 'fake' },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

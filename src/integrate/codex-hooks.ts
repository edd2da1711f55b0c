/**
 * Codex CLI hooks (`$CODEX_HOME/hooks.json`, checked with codex-cli 0.169.0): the same shape as
 * Claude Code's settings (`{"hooks": {Event: [{matcher?, hooks: [{type: "command", command,
 * timeout}]}]}}`), so Claude Code's merge does the editing. Codex runs a hook only once the person
 * has trusted it (a review on the next interactive start, or /hooks); its trust is keyed by file,
 * event and position, so nightshift's groups go last and other hooks keep their places.
 */
import { join } from 'node:path';
import { installHooks, uninstallHooks, type HookSet } from './claude-code.js';
import { codexHome } from './codex.js';
import type { Invocation } from './command.js';
import type { JsonObject } from './files.js';

/**
 * No matcher: the group runs for every source (startup, resume, clear…) and every end. The prompt
 * hook (codex-cli 0.169.0 reads UserPromptSubmit's hookSpecificOutput.additionalContext as Claude
 * Code does) tells the session of task outcomes and adds what matches the prompt.
 */
export const CODEX_HOOKS: HookSet = {
  hooks: [
    { event: 'SessionStart', arg: 'session-start', timeout: 10 },
    { event: 'SessionEnd', arg: 'session-end', timeout: 30 },
    { event: 'UserPromptSubmit', arg: 'user-prompt-submit', timeout: 5 },
  ],
};

export function codexHooksPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(codexHome(env), 'hooks.json');
}

export function installCodexHooks(file: JsonObject, inv: Invocation, path: string): ReturnType<typeof installHooks> {
  return installHooks(file, inv, path, CODEX_HOOKS);
}

export function uninstallCodexHooks(file: JsonObject, path: string): ReturnType<typeof uninstallHooks> {
  return uninstallHooks(file, path, CODEX_HOOKS);
}

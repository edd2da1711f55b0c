/**
 * The `codex exec` command line of one structured question: the answer's JSON Schema as
 * --output-schema, the final message to a file, no session saved, a read-only sandbox, the user's
 * config.toml left out (its MCP servers and hooks), and every tool and extra instruction turned
 * off with `-c` overrides (codex ignores keys it does not know, with a warning; an unknown
 * --disable FEATURE is fatal, hence `-c features.X=false`). With codex-cli 0.169.0 this leaves a
 * request of ~3 KB with no tools: the question's system prompt replaces Codex's own instructions.
 * Analytics are off too: with them on, each run also looks up chatgpt.com (seen with strace).
 */
import type { CodexFlag } from './codex-probe.js';

/** Features that add tools or instructions to a request (codex-cli 0.169.0 `codex features list`). */
const FEATURES_OFF = [
  'shell_tool',
  'unified_exec',
  'apply_patch_freeform',
  'view_image',
  'image_generation',
  'web_search_request',
  'standalone_web_search',
  'multi_agent',
  'multi_agent_v2',
  'request_permissions_tool',
  'tool_suggest',
  'sleep_tool',
  'goals',
  'memories',
  'apps',
  'plugins',
  'hooks',
  'browser_use',
  'computer_use',
  'skill_search',
  'code_mode',
  'shell_snapshot',
  'current_time_reminder',
  'token_budget',
];

const OVERRIDES = [
  ...FEATURES_OFF.map((f) => `features.${f}=false`),
  'web_search="disabled"',
  'tools.experimental_request_user_input.enabled=false',
  'tools.update_plan.enabled=false',
  'skills.include_instructions=false',
  'cloud.skills.enabled=false',
  'model_reasoning_effort="low"',
  'analytics.enabled=false',
];

export interface CodexCall {
  flags: ReadonlySet<CodexFlag>;
  schemaFile: string;
  instructionsFile: string;
  answerFile: string;
  model?: string;
  /** More `-c key=value` overrides, after nightshift's (a custom provider, in tests). */
  extraConfig?: readonly string[];
}

/** A TOML basic string (`-c` values are parsed as TOML). */
const tomlString = (s: string) => JSON.stringify(s);

export function codexExecArgs(c: CodexCall): string[] {
  const has = (f: CodexFlag) => c.flags.has(f);
  const args = ['exec'];
  if (has('--json')) args.push('--json');
  args.push('--output-schema', c.schemaFile, '--output-last-message', c.answerFile);
  if (has('--ephemeral')) args.push('--ephemeral');
  if (has('--sandbox')) args.push('--sandbox', 'read-only');
  if (has('--skip-git-repo-check')) args.push('--skip-git-repo-check');
  if (has('--ignore-user-config')) args.push('--ignore-user-config');
  if (c.model !== undefined) args.push(...(has('--model') ? ['--model', c.model] : ['--config', `model=${tomlString(c.model)}`]));
  args.push('--config', `model_instructions_file=${tomlString(c.instructionsFile)}`);
  for (const o of [...OVERRIDES, ...(c.extraConfig ?? [])]) args.push('--config', o);
  args.push('-'); // the prompt on stdin
  return args;
}

/**
 * The command line of one structured question: `claude -p` with nothing it does not need. No
 * tools, our system prompt instead of Claude Code's, no session file, no settings files (so no
 * hooks, plugins or MCP servers of the machine), hooks off again by setting, the configured model
 * always (the CLI's own default is a large model), a dollar cap per call. The prompt goes on stdin,
 * never on the command line (where `ps` would show it). A flag this version lacks is left out; the
 * system prompt and the schema then travel in the prompt.
 */
import type { CliProbe, StructuredQuestion } from '../backend.js';
import type { ClaudeFlag } from './claude-cli-probe.js';

export interface ClaudeCall {
  args: string[];
  /** What goes to the child's stdin. */
  stdin: string;
}

export function claudeCall(q: StructuredQuestion, o: { probe: CliProbe; model: string; maxUsdPerCall: number }): ClaudeCall {
  const has = (f: ClaudeFlag): boolean => !o.probe.missingFlags.includes(f);
  const args = ['-p', '--output-format', 'json', '--model', o.model];
  if (has('--tools')) args.push('--tools', '');
  if (has('--no-session-persistence')) args.push('--no-session-persistence');
  if (has('--setting-sources')) args.push('--setting-sources', '');
  if (has('--settings')) args.push('--settings', JSON.stringify({ disableAllHooks: true }));
  if (has('--max-budget-usd') && o.maxUsdPerCall > 0) args.push('--max-budget-usd', String(o.maxUsdPerCall));
  if (has('--json-schema')) args.push('--json-schema', JSON.stringify(q.schema));
  const parts: string[] = [];
  if (has('--system-prompt')) args.push('--system-prompt', q.system);
  else parts.push(q.system);
  parts.push(q.prompt);
  if (!has('--json-schema')) parts.push(`Answer ONLY with one JSON object matching this JSON Schema:\n${JSON.stringify(q.schema)}`);
  return { args, stdin: parts.join('\n\n') };
}

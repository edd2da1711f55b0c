import type { Command } from 'commander';
import { claudePaths, installHooks, installMcp, uninstallHooks, uninstallMcp } from '../integrate/claude-code.js';
import { codexConfigPath, installCodex, uninstallCodex } from '../integrate/codex.js';
import { codexHooksPath, installCodexHooks, uninstallCodexHooks } from '../integrate/codex-hooks.js';
import { hookCommand, invocation, shellCommand, type Invocation } from '../integrate/command.js';
import { hookEntryScript } from '../integrate/hook-entry.js';
import { parseJsonObject, readText, removeWithBackup, toJsonText, writeWithBackup, type JsonObject } from '../integrate/files.js';
import { editJsonText, type JsonEdit } from '../integrate/json-edit.js';
import { readExtractionSetting, setModelExtraction, type ModelExtraction } from '../integrate/model-extraction.js';
import { resolvePaths } from '../paths.js';
import { decideModelExtraction, modelExtractionValue } from './model-extraction.js';
import { printJson } from './print-json.js';

interface Options {
  uninstall?: boolean;
  dryRun?: boolean;
  json?: boolean;
  /** Set memory.extractor in nightshift's own config file (see model-extraction.ts). */
  modelExtraction?: ModelExtraction;
}

/** One file's planned edit: computed for every file before any is written. */
interface Plan {
  file: string;
  before: string | undefined;
  /** null: the file goes (what is left says nothing). */
  after: string | null;
  changes: string[];
}

export interface FileResult {
  file: string;
  changed: boolean;
  created: boolean;
  backup?: string;
  changes: string[];
}

export interface IntegrateResult {
  integration: 'claude-code' | 'codex';
  action: 'install' | 'uninstall';
  dryRun: boolean;
  changed: boolean;
  files: FileResult[];
  notes: string[];
}

function apply(integration: IntegrateResult['integration'], o: Options, plans: Plan[], notes: string[]): IntegrateResult {
  const files = plans.map((p): FileResult => {
    const changed = p.changes.length > 0;
    const r: FileResult = { file: p.file, changed, created: changed && p.before === undefined, changes: p.changes };
    if (changed && !o.dryRun) {
      const { backup } = p.after === null && p.before !== undefined ? removeWithBackup(p.file, p.before) : writeWithBackup(p.file, p.before, p.after ?? '');
      if (backup) r.backup = backup;
    }
    return r;
  });
  return { integration, action: o.uninstall ? 'uninstall' : 'install', dryRun: Boolean(o.dryRun), changed: files.some((f) => f.changed), files, notes };
}

/** The file's new text: its own bytes with only the edits applied; a new (or blank) file is written whole. */
function jsonAfter(before: string | undefined, edit: { value: JsonObject; edits: JsonEdit[] }): string {
  if (edit.edits.length === 0) return before ?? toJsonText(edit.value);
  return before === undefined || before.trim() === '' ? toJsonText(edit.value) : editJsonText(before, edit.edits);
}

/** The hook entry the hooks run, written before them so that no hook names a missing file; left in place by --uninstall (the other agent's hooks may run it). */
function entryPlans(o: Options, inv: Invocation): Plan[] {
  if (o.uninstall) return [];
  const before = readText(inv.hookEntry);
  const after = hookEntryScript(inv);
  return [{ file: inv.hookEntry, before, after, changes: before === after ? [] : [`${before === undefined ? 'wrote' : 'updated'} the hook entry`] }];
}

export function integrateClaudeCode(o: Options): IntegrateResult {
  const paths = claudePaths();
  const inv = invocation();
  const settingsText = readText(paths.settings);
  const stateText = readText(paths.state);
  const settings = parseJsonObject(paths.settings, settingsText);
  const state = parseJsonObject(paths.state, stateText);
  const hooks = o.uninstall ? uninstallHooks(settings, paths.settings) : installHooks(settings, inv, paths.settings);
  const mcp = o.uninstall ? uninstallMcp(state, paths.state) : installMcp(state, inv, paths.state);
  const notes: string[] = [];
  if (mcp.skipped) notes.push(mcp.skipped);
  const entry = entryPlans(o, inv);
  const plans: Plan[] = [
    ...entry,
    { file: paths.settings, before: settingsText, after: jsonAfter(settingsText, hooks), changes: hooks.changes },
    { file: paths.state, before: stateText, after: jsonAfter(stateText, mcp), changes: mcp.changes },
  ];
  if (o.modelExtraction && !o.uninstall) {
    const file = resolvePaths().configFile;
    const before = readText(file);
    const edit = setModelExtraction(file, before, o.modelExtraction);
    plans.push({ file, before, after: edit.after, changes: edit.changes });
  }
  const r = apply('claude-code', o, plans, notes);
  const agentFiles = r.files.slice(entry.length, entry.length + 2);
  if (agentFiles.some((f) => f.changed) && !o.uninstall) notes.push('start a new Claude Code session to load them; check with /hooks and /mcp inside it');
  if (r.files[entry.length + 2]?.changed && !o.dryRun)
    notes.push(
      'memory.extractor takes effect when the daemon restarts (`nightshift reload` is not enough): `systemctl --user restart nightshift`, or end the daemon and the next command starts it',
    );
  return r;
}

export function integrateCodex(o: Options): IntegrateResult {
  const inv = invocation();
  const file = codexConfigPath();
  const before = readText(file);
  const edit = o.uninstall ? uninstallCodex(before, file) : installCodex(before, inv, file);
  const hooksFile = codexHooksPath();
  const hooksText = readText(hooksFile);
  const hooksJson = parseJsonObject(hooksFile, hooksText);
  const hooks = o.uninstall ? uninstallCodexHooks(hooksJson, hooksFile) : installCodexHooks(hooksJson, inv, hooksFile);
  // A hooks.json left with nothing in it (nightshift created it, or only its hooks were there) goes.
  const empty = o.uninstall && hooks.changes.length > 0 && Object.keys(hooks.value).length === 0;
  const r = apply(
    'codex',
    o,
    [
      ...entryPlans(o, inv),
      { file, before, after: edit.text, changes: edit.changes },
      { file: hooksFile, before: hooksText, after: empty ? null : jsonAfter(hooksText, hooks), changes: hooks.changes },
    ],
    [],
  );
  if (r.changed && !o.uninstall) {
    r.notes.push(
      'start a new Codex session to load them; check with `codex mcp list` or /mcp inside it',
      'Codex runs the hooks only once you trust them: the next interactive `codex` start asks you to review them ("Trust all and continue"), or use /hooks',
    );
  }
  return r;
}

function report(r: IntegrateResult, json: boolean | undefined): void {
  if (json) return printJson(r);
  const verb = r.dryRun ? 'would change' : 'changed';
  for (const f of r.files) {
    if (!f.changed) continue;
    const extra = f.backup ? ` (backup: ${f.backup})` : f.created ? ' (new file)' : '';
    process.stdout.write(`${verb} ${f.file}${extra}:\n${f.changes.map((c) => `  - ${c}\n`).join('')}`);
  }
  if (!r.changed) {
    const state = r.action === 'install' ? 'already set up' : 'not set up';
    process.stdout.write(`${r.integration}: ${state}; nothing changed (${r.files.map((f) => f.file).join(', ')})\n`);
  }
  for (const n of r.notes) process.stdout.write(`${n}\n`);
}

export function registerIntegrateCommands(program: Command): void {
  const inv = () => invocation();
  const integrate = program
    .command('integrate')
    .description('connect nightshift to Claude Code or Codex CLI (hooks and the MCP server)')
    .addHelpText(
      'after',
      `
Files are merged, never overwritten: other settings stay, a backup (<file>.bak-<time>) is kept before
each change, running it again changes nothing, and --uninstall removes exactly what was added.
Commands are written with absolute paths (this node and this nightshift), so they work whatever PATH
the agent gives its hooks; run it again after moving node or nightshift.`,
    );

  integrate
    .command('claude-code')
    .description('install the session hooks and register the MCP server for Claude Code')
    .option('--uninstall', 'remove the hooks and the MCP server nightshift added')
    .option('--dry-run', 'show what would change, write nothing')
    .option('--json', 'print what was changed as JSON')
    .option(
      '--model-extraction <on|off>',
      'extract memories through your Claude login (on: memory.extractor "claude-cli"; off: "auto"); asked on a terminal when not set yet',
      modelExtractionValue,
    )
    .addHelpText(
      'after',
      () => `
Writes the hook entry ${inv().hookEntry} (a shell script that hands each hook to the
daemon over its socket with curl, or runs the Node hook) and adds to ~/.claude/settings.json (or
$CLAUDE_CONFIG_DIR/settings.json) four command hooks:
  SessionStart      ${hookCommand(inv(), 'session-start')}
  UserPromptSubmit  … user-prompt-submit   (task outcomes, and what matches the prompt)
  SessionEnd        … session-end   (ingests the finished session's transcript into memories)
  PreCompact        … pre-compact   (ingests the transcript before Claude Code compacts it)
and registers the MCP server "nightshift" at user scope in ~/.claude.json (mcpServers):
  ${shellCommand(inv(), ['mcp'])}`,
    )
    .action(async (o: Options) => {
      const configFile = resolvePaths().configFile;
      const decided = await decideModelExtraction(o, () => readExtractionSetting(configFile, readText(configFile)));
      const r = integrateClaudeCode({ ...o, ...(decided.to && { modelExtraction: decided.to }) });
      if (decided.note) r.notes.push(decided.note);
      report(r, o.json);
    });

  integrate
    .command('codex')
    .description('install the session hooks and register the MCP server for Codex CLI')
    .option('--uninstall', 'remove the hooks and the [mcp_servers.nightshift] table nightshift added')
    .option('--dry-run', 'show what would change, write nothing')
    .option('--json', 'print what was changed as JSON')
    .addHelpText(
      'after',
      () => `
Adds a [mcp_servers.nightshift] table to ~/.codex/config.toml (or $CODEX_HOME/config.toml) that runs
  ${shellCommand(inv(), ['mcp'])}
(only that table is written; every other line of the file stays byte for byte), the hook entry
${inv().hookEntry}, and three command hooks to ~/.codex/hooks.json (or $CODEX_HOME/hooks.json;
Codex CLI 0.169.0 or later):
  SessionStart      ${hookCommand(inv(), 'session-start')}
  UserPromptSubmit  … user-prompt-submit   (task outcomes, and what matches the prompt)
  SessionEnd        … session-end   (ingests the finished session's rollout into memories)
Codex runs hooks only once you trust them (it asks on the next interactive start, or /hooks).`,
    )
    .action((o: Options) => report(integrateCodex(o), o.json));
}

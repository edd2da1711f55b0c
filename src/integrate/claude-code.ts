import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import { hookCommand, type Invocation } from './command.js';
import { isObject, type JsonObject } from './files.js';
import { editJsonValue, type JsonEdit, type JsonPath } from './json-edit.js';

/** A hook nightshift installs: event, `nightshift hook` argument, timeout in seconds. */
export interface HookSpec {
  event: string;
  arg: string;
  timeout: number;
}

/** Claude Code's. */
export const HOOKS: readonly HookSpec[] = [
  { event: 'SessionStart', arg: 'session-start', timeout: 10 },
  { event: 'SessionEnd', arg: 'session-end', timeout: 30 },
  { event: 'PreCompact', arg: 'pre-compact', timeout: 60 },
  { event: 'UserPromptSubmit', arg: 'user-prompt-submit', timeout: 5 },
];

/** Which hooks, and the matcher of the groups added (none: the key is left out). Claude Code's by default. */
export interface HookSet {
  hooks: readonly HookSpec[];
  matcher?: string;
}
const CLAUDE: HookSet = { hooks: HOOKS, matcher: '' };

export const MCP_NAME = 'nightshift';

export interface ClaudePaths {
  /** Hooks live here. */
  settings: string;
  /** User-scope MCP servers live here (`mcpServers`). */
  state: string;
}

/** `~/.claude/settings.json` and `~/.claude.json`, or both inside CLAUDE_CONFIG_DIR when it is set. */
export function claudePaths(env: NodeJS.ProcessEnv = process.env): ClaudePaths {
  const dir = env.CLAUDE_CONFIG_DIR;
  const home = env.HOME || homedir();
  return dir
    ? { settings: join(dir, 'settings.json'), state: join(dir, '.claude.json') }
    : { settings: join(home, '.claude', 'settings.json'), state: join(home, '.claude.json') };
}

/**
 * A hook command nightshift installed: `… nightshift-hook.sh <event>`, or the Node hook of earlier
 * installs, `… nightshift hook <event>` or `… /dist/cli.js hook <event>`, whatever paths it was
 * installed with (so a re-install from elsewhere, or of the shell entry, replaces it).
 */
export function isNightshiftHook(command: string): boolean {
  return /(?:^|[\s'"])(?:[^\s'"]*\/)?(?:(?:nightshift|dist\/cli\.js)['"]?\s+hook|nightshift-hook\.sh['"]?)\s+(?:session-start|session-end|pre-compact|user-prompt-submit)\s*$/.test(
    command,
  );
}

function hookCommandOf(h: unknown): string | undefined {
  return isObject(h) && h.type === 'command' && typeof h.command === 'string' ? h.command : undefined;
}

interface Edit {
  /** The settings as they will be. */
  value: JsonObject;
  /** What to change in the file's text, in order (see json-edit.ts). */
  edits: JsonEdit[];
  changes: string[];
  /** Something nightshift did not touch, and why. */
  skipped?: string;
}

function edited(value: JsonObject, edits: JsonEdit[], changes: string[]): Edit {
  return { value: edits.length > 0 ? editJsonValue(value, edits) : value, edits, changes };
}

function hooksTable(settings: JsonObject, file: string, specs: readonly HookSpec[]): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new AppError('config_invalid', `${file}: "hooks" is not an object; fix it first, nothing was changed`);
  for (const { event } of specs) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups) || !groups.every((g) => isObject(g) && (g.hooks === undefined || Array.isArray(g.hooks)))) {
      throw new AppError('config_invalid', `${file}: "hooks.${event}" is not a list of {matcher, hooks: [...]}; fix it first, nothing was changed`);
    }
  }
  return hooks;
}

/** Where nightshift's hook commands are in one event's groups: [group, hook] pairs. */
function ownHooks(groups: JsonObject[]): [number, number][] {
  const found: [number, number][] = [];
  groups.forEach((g, gi) =>
    ((g.hooks as unknown[] | undefined) ?? []).forEach((h, hi) => {
      const cmd = hookCommandOf(h);
      if (cmd !== undefined && isNightshiftHook(cmd)) found.push([gi, hi]);
    }),
  );
  return found;
}

/**
 * Removes the given hooks of one event, last first (so the indices stay right), a group left empty
 * with them; the event itself when no group is left. `event`: the path of the event's list.
 */
function removeHooks(path: JsonPath, groups: JsonObject[], remove: [number, number][]): JsonEdit[] {
  const byGroup = new Map<number, number[]>();
  for (const [gi, hi] of remove) byGroup.set(gi, [...(byGroup.get(gi) ?? []), hi]);
  const emptied = [...byGroup].filter(([gi, his]) => his.length === ((groups[gi] as JsonObject).hooks as unknown[]).length).map(([gi]) => gi);
  if (emptied.length === groups.length) return [{ path, remove: true }];
  const edits: JsonEdit[] = [];
  for (const [gi, his] of [...byGroup].sort((a, b) => b[0] - a[0])) {
    if (emptied.includes(gi)) edits.push({ path: [...path, gi], remove: true });
    else for (const hi of his.sort((a, b) => b - a)) edits.push({ path: [...path, gi, 'hooks', hi], remove: true });
  }
  return edits;
}

/** Adds (or brings up to date) nightshift's command hooks; every other setting and hook stays as it is. */
export function installHooks(settings: JsonObject, inv: Invocation, file: string, set: HookSet = CLAUDE): Edit {
  const hooks = hooksTable(settings, file, set.hooks);
  const edits: JsonEdit[] = [];
  const changes: string[] = [];
  const fresh: JsonObject = {};
  for (const { event, arg, timeout } of set.hooks) {
    const command = hookCommand(inv, arg);
    const handlers = [{ type: 'command', command, timeout }];
    const group = set.matcher === undefined ? { hooks: handlers } : { matcher: set.matcher, hooks: handlers };
    const groups = hooks?.[event] as JsonObject[] | undefined;
    const own = groups ? ownHooks(groups) : [];
    const [first, ...duplicates] = own;
    if (!first) {
      changes.push(`added the ${event} hook`);
      if (!hooks) fresh[event] = [group];
      else if (!groups) edits.push({ path: ['hooks', event], value: [group] });
      else edits.push({ path: ['hooks', event, groups.length], value: group });
      continue;
    }
    const [gi, hi] = first;
    const have = ((groups as JsonObject[])[gi]?.hooks as JsonObject[])[hi] as JsonObject;
    if (have.command !== command) {
      edits.push({ path: ['hooks', event, gi, 'hooks', hi, 'command'], value: command });
      changes.push(`updated the ${event} hook command`);
    }
    if (duplicates.length > 0) {
      edits.push(...removeHooks(['hooks', event], groups as JsonObject[], duplicates));
      changes.push(...duplicates.map(() => `removed a duplicate ${event} hook`));
    }
  }
  if (Object.keys(fresh).length > 0) edits.push({ path: ['hooks'], value: fresh });
  return edited(settings, edits, changes);
}

/** Removes exactly the hooks nightshift added, and the groups and lists left empty by that. */
export function uninstallHooks(settings: JsonObject, file: string, set: HookSet = CLAUDE): Edit {
  const hooks = hooksTable(settings, file, set.hooks);
  if (!hooks) return edited(settings, [], []);
  const edits: JsonEdit[] = [];
  const changes: string[] = [];
  let emptiedEvents = 0;
  for (const { event } of set.hooks) {
    const groups = hooks[event] as JsonObject[] | undefined;
    const own = groups ? ownHooks(groups) : [];
    if (!groups || own.length === 0) continue;
    const removal = removeHooks(['hooks', event], groups, own);
    if (removal.length === 1 && removal[0]?.path.length === 2) emptiedEvents++;
    edits.push(...removal);
    changes.push(`removed the ${event} hook`);
  }
  // Nothing but nightshift's hooks was there: the whole table goes, as it came.
  if (edits.length > 0 && emptiedEvents === Object.keys(hooks).length) return edited(settings, [{ path: ['hooks'], remove: true }], changes);
  return edited(settings, edits, changes);
}

export function mcpEntry(inv: Invocation): JsonObject {
  return { type: 'stdio', command: inv.node, args: [inv.cli, 'mcp'], env: { ...inv.env } };
}

/** An MCP server entry nightshift wrote: `… cli.js mcp` or `nightshift mcp`. */
export function isNightshiftMcp(entry: unknown): boolean {
  if (!isObject(entry) || typeof entry.command !== 'string' || !Array.isArray(entry.args)) return false;
  const args = entry.args as unknown[];
  if (args[args.length - 1] !== 'mcp') return false;
  return /(^|\/)nightshift$/.test(entry.command) || args.some((a) => typeof a === 'string' && /(^|\/)(dist\/cli\.js|nightshift)$/.test(a));
}

function mcpServers(state: JsonObject, file: string): JsonObject | undefined {
  const servers = state.mcpServers;
  if (servers === undefined) return undefined;
  if (!isObject(servers)) throw new AppError('config_invalid', `${file}: "mcpServers" is not an object; fix it first, nothing was changed`);
  return servers;
}

/** Registers the MCP server at user scope; everything else in the file stays. */
export function installMcp(state: JsonObject, inv: Invocation, file: string): Edit {
  const current = mcpServers(state, file);
  const want = mcpEntry(inv);
  const have = current?.[MCP_NAME];
  if (have !== undefined && JSON.stringify(sortKeys(have)) === JSON.stringify(sortKeys(want))) return edited(state, [], []);
  const edit: JsonEdit = current ? { path: ['mcpServers', MCP_NAME], value: want } : { path: ['mcpServers'], value: { [MCP_NAME]: want } };
  const change =
    have === undefined
      ? `registered the MCP server "${MCP_NAME}"`
      : isNightshiftMcp(have)
        ? `updated the MCP server "${MCP_NAME}"`
        : `replaced an MCP server also named "${MCP_NAME}"`;
  return edited(state, [edit], [change]);
}

export function uninstallMcp(state: JsonObject, file: string): Edit {
  const current = mcpServers(state, file);
  const have = current?.[MCP_NAME];
  if (!current || have === undefined) return edited(state, [], []);
  if (!isNightshiftMcp(have)) {
    return { ...edited(state, [], []), skipped: `left the MCP server "${MCP_NAME}" in ${file} alone: it does not run nightshift` };
  }
  const path = Object.keys(current).length > 1 ? ['mcpServers', MCP_NAME] : ['mcpServers'];
  return edited(state, [{ path, remove: true }], [`removed the MCP server "${MCP_NAME}"`]);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}

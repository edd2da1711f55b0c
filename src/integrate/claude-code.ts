import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import { shellCommand, type Invocation } from './command.js';
import { isObject, type JsonObject } from './files.js';

/** The hooks nightshift installs: event, `nightshift hook` argument, timeout in seconds. */
export const HOOKS = [
  { event: 'SessionStart', arg: 'session-start', timeout: 10 },
  { event: 'SessionEnd', arg: 'session-end', timeout: 30 },
  { event: 'PreCompact', arg: 'pre-compact', timeout: 60 },
  { event: 'UserPromptSubmit', arg: 'user-prompt-submit', timeout: 5 },
] as const;

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
  return dir ? { settings: join(dir, 'settings.json'), state: join(dir, '.claude.json') } : { settings: join(home, '.claude', 'settings.json'), state: join(home, '.claude.json') };
}

/**
 * A hook command nightshift installed: `… nightshift hook <event>` or `… /dist/cli.js hook <event>`,
 * whatever node and path it was installed with (so a re-install from elsewhere replaces it).
 */
export function isNightshiftHook(command: string): boolean {
  return /(?:^|[\s'"])(?:[^\s'"]*\/)?(?:nightshift|dist\/cli\.js)['"]?\s+hook\s+(?:session-start|session-end|pre-compact|user-prompt-submit)\s*$/.test(command);
}

function hookCommandOf(h: unknown): string | undefined {
  return isObject(h) && h.type === 'command' && typeof h.command === 'string' ? h.command : undefined;
}

interface Edit {
  value: JsonObject;
  changes: string[];
  /** Something nightshift did not touch, and why. */
  skipped?: string;
}

function hooksTable(settings: JsonObject, file: string): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new AppError('config_invalid', `${file}: "hooks" is not an object; fix it first, nothing was changed`);
  for (const { event } of HOOKS) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups) || !groups.every((g) => isObject(g) && (g.hooks === undefined || Array.isArray(g.hooks)))) {
      throw new AppError('config_invalid', `${file}: "hooks.${event}" is not a list of {matcher, hooks: [...]}; fix it first, nothing was changed`);
    }
  }
  return hooks;
}

/** Adds (or brings up to date) the three command hooks; every other setting and hook stays as it is. */
export function installHooks(settings: JsonObject, inv: Invocation, file: string): Edit {
  const value = structuredClone(settings);
  const hooks = hooksTable(value, file) ?? {};
  const changes: string[] = [];
  for (const { event, arg, timeout } of HOOKS) {
    const command = shellCommand(inv, ['hook', arg]);
    const groups = (hooks[event] as JsonObject[] | undefined) ?? [];
    let found = false;
    const emptied = new Set<JsonObject>();
    for (const g of groups) {
      const list = (g.hooks as unknown[] | undefined) ?? [];
      for (let i = 0; i < list.length; i++) {
        const cmd = hookCommandOf(list[i]);
        if (cmd === undefined || !isNightshiftHook(cmd)) continue;
        if (found) {
          list.splice(i--, 1);
          if (list.length === 0) emptied.add(g);
          changes.push(`removed a duplicate ${event} hook`);
        } else {
          found = true;
          if (cmd !== command) {
            (list[i] as JsonObject).command = command;
            changes.push(`updated the ${event} hook command`);
          }
        }
      }
    }
    const kept = groups.filter((g) => !emptied.has(g));
    if (!found) {
      kept.push({ matcher: '', hooks: [{ type: 'command', command, timeout }] });
      changes.push(`added the ${event} hook`);
    }
    hooks[event] = kept;
  }
  if (changes.length > 0) value.hooks = hooks;
  return changes.length > 0 ? { value, changes } : { value: settings, changes };
}

/** Removes exactly the hooks nightshift added, and the groups and lists left empty by that. */
export function uninstallHooks(settings: JsonObject, file: string): Edit {
  const value = structuredClone(settings);
  const hooks = hooksTable(value, file);
  const changes: string[] = [];
  if (!hooks) return { value: settings, changes };
  for (const { event } of HOOKS) {
    const groups = hooks[event] as JsonObject[] | undefined;
    if (!groups) continue;
    const kept: JsonObject[] = [];
    for (const g of groups) {
      if (!Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const before = g.hooks.length;
      const rest = (g.hooks as unknown[]).filter((h) => {
        const cmd = hookCommandOf(h);
        return cmd === undefined || !isNightshiftHook(cmd);
      });
      g.hooks = rest;
      if (rest.length < before) changes.push(`removed the ${event} hook`);
      if (rest.length > 0 || before === 0) kept.push(g);
    }
    if (kept.length > 0) hooks[event] = kept;
    else if (groups.length > 0) delete hooks[event];
  }
  if (changes.length === 0) return { value: settings, changes };
  if (Object.keys(hooks).length === 0) delete value.hooks;
  return { value, changes };
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
  if (have !== undefined && JSON.stringify(sortKeys(have)) === JSON.stringify(sortKeys(want))) return { value: state, changes: [] };
  const value = structuredClone(state);
  value.mcpServers = { ...(current ?? {}), [MCP_NAME]: want };
  const change =
    have === undefined
      ? `registered the MCP server "${MCP_NAME}"`
      : isNightshiftMcp(have)
        ? `updated the MCP server "${MCP_NAME}"`
        : `replaced an MCP server also named "${MCP_NAME}"`;
  return { value, changes: [change] };
}

export function uninstallMcp(state: JsonObject, file: string): Edit {
  const current = mcpServers(state, file);
  const have = current?.[MCP_NAME];
  if (!current || have === undefined) return { value: state, changes: [] };
  if (!isNightshiftMcp(have)) {
    return { value: state, changes: [], skipped: `left the MCP server "${MCP_NAME}" in ${file} alone: it does not run nightshift` };
  }
  const value = structuredClone(state);
  const servers = { ...current };
  delete servers[MCP_NAME];
  if (Object.keys(servers).length > 0) value.mcpServers = servers;
  else delete value.mcpServers;
  return { value, changes: [`removed the MCP server "${MCP_NAME}"`] };
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

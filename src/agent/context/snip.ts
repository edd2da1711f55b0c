/**
 * Tier "snip": results that newer ones have made stale. An older read of a file that was read again
 * later (the same range, or the whole file) and search results beyond the newest few become a
 * placeholder. The tool_use stays, so the model still knows it read src/main.ts; it can read it again.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { placeholder, replaceResult, toolResults, type ToolResultRef } from './blocks.js';
import { noChange, type TierReport } from './types.js';

export type ToolClass = { kind: 'read'; path: string; range?: string } | { kind: 'search' } | { kind: 'other' };
export type ToolClassifier = (name: string, input: unknown) => ToolClass;

export interface SnipConfig {
  enabled: boolean;
  /** Newest search results kept. */
  keepSearches: number;
  /** Which tools read files (and which file) and which search; the loop knows its own tools. */
  classify: ToolClassifier;
}

const READ = /^(read|read_?file|readfile|view|view_?file|cat|open_?file|str_replace_based_edit_tool)$/i;
const SEARCH = /(grep|glob|search|find|list_?files|list_?dir|^ls$|ripgrep|rg)/i;
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'filename'];
const RANGE_KEYS = ['offset', 'limit', 'start_line', 'end_line', 'view_range', 'lines'];

/** Names like read_file / Read / view are reads (path from path, file_path…); grep, glob, search… are searches. */
export const defaultClassify: ToolClassifier = (name, input) => {
  const o = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  if (READ.test(name)) {
    // The text editor tool reads only with command "view".
    if ('command' in o && o['command'] !== 'view') return { kind: 'other' };
    const key = PATH_KEYS.find((k) => typeof o[k] === 'string');
    if (!key) return { kind: 'other' };
    const range = RANGE_KEYS.filter((k) => o[k] !== undefined)
      .map((k) => `${k}=${JSON.stringify(o[k])}`)
      .join(',');
    return range ? { kind: 'read', path: o[key] as string, range } : { kind: 'read', path: o[key] as string };
  }
  if (SEARCH.test(name)) return { kind: 'search' };
  return { kind: 'other' };
};

export const DEFAULT_SNIP: SnipConfig = { enabled: true, keepSearches: 3, classify: defaultClassify };

export function applySnip(messages: MessageParam[], cfg: SnipConfig, protectedFrom: number): TierReport {
  if (!cfg.enabled) return noChange('snip');
  const report = noChange('snip');
  const clear = (r: ToolResultRef, why: string) => {
    report.freedTokens += replaceResult(r.block, placeholder(r.call, why, r.tokens));
    report.blocks++;
  };
  /** Per path, the ranges read later ('' = the whole file). */
  const readLater = new Map<string, Set<string>>();
  let searches = 0;
  const results = toolResults(messages);
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i] as ToolResultRef;
    if (!r.call || r.block.is_error) continue;
    const cls = cfg.classify(r.call.name, r.call.input);
    if (cls.kind === 'read') {
      const later = readLater.get(cls.path) ?? new Set<string>();
      const stale = later.has('') || later.has(cls.range ?? '');
      if (stale && !r.cleared && r.msgIndex < protectedFrom) clear(r, `snipped, ${cls.path} was read again later`);
      later.add(cls.range ?? '');
      readLater.set(cls.path, later);
    } else if (cls.kind === 'search') {
      searches++;
      if (searches > cfg.keepSearches && !r.cleared && r.msgIndex < protectedFrom)
        clear(r, `snipped, only the ${cfg.keepSearches} newest search results are kept`);
    }
  }
  return report;
}

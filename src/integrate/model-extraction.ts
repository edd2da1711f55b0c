/**
 * `integrate claude-code --model-extraction on|off`: memory extraction through the person's own
 * Claude login. `on` sets memory.extractor to "claude-cli" in nightshift's config file, `off` back
 * to "auto" (the API when a key is set, else the heuristics). Only that key's bytes change.
 */
import { ConfigSchema } from '../config.js';
import { isObject, parseJsonObject, toJsonText, type JsonObject } from './files.js';
import { editJsonText } from './json-edit.js';

export type ModelExtraction = 'on' | 'off';

const VALUE: Record<ModelExtraction, string> = { on: 'claude-cli', off: 'auto' };

export interface ExtractionSetting {
  /** memory.extractor as the file says it; undefined: never set (the default, auto). */
  extractor: string | undefined;
  dailyTokenBudget: number;
}

/** What the config file says now (a file that is not valid JSON is refused, naming it). */
export function readExtractionSetting(file: string, text: string | undefined): ExtractionSetting {
  const value = parseJsonObject(file, text);
  const memory = isObject(value.memory) ? value.memory : {};
  const parsed = ConfigSchema.safeParse(value);
  const extractor = typeof memory.extractor === 'string' ? memory.extractor : undefined;
  return { extractor, dailyTokenBudget: parsed.success ? parsed.data.memory.dailyTokenBudget : ConfigSchema.parse({}).memory.dailyTokenBudget };
}

/** The file's new text and what changed (nothing when it already says so). */
export function setModelExtraction(file: string, text: string | undefined, to: ModelExtraction): { after: string; changes: string[] } {
  const value: JsonObject = parseJsonObject(file, text);
  const want = VALUE[to];
  const memory = value.memory;
  if (isObject(memory) && memory.extractor === want) return { after: text ?? '', changes: [] };
  const change = `set memory.extractor to "${want}" (${to === 'on' ? 'memory extraction through your Claude login' : 'the API when a key is set, else the heuristics'})`;
  if (text === undefined || text.trim() === '') return { after: toJsonText({ memory: { extractor: want } }), changes: [change] };
  const edit = isObject(memory) ? { path: ['memory', 'extractor'], value: want } : { path: ['memory'], value: { extractor: want } };
  return { after: editJsonText(text, [edit]), changes: [change] };
}

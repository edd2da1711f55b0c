/** Whether `integrate claude-code` turns memory extraction through the Claude login on or off: the flag, else one question on a terminal. */
import { createInterface } from 'node:readline/promises';
import { AppError } from '../errors.js';
import type { ExtractionSetting, ModelExtraction } from '../integrate/model-extraction.js';

export function modelExtractionValue(v: string): ModelExtraction {
  if (v !== 'on' && v !== 'off') throw new AppError('bad_request', `--model-extraction must be on or off; got "${v}"`);
  return v;
}

export const TURN_ON = 'nightshift integrate claude-code --model-extraction on';

async function ask(budget: number): Promise<ModelExtraction> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const a = await rl.question(`Use your Claude login (the claude CLI) to extract memories, up to ${budget.toLocaleString('en-US')} tokens a day? [Y/n] `);
    return /^\s*(n|no)\s*$/i.test(a) ? 'off' : 'on';
  } finally {
    rl.close();
  }
}

/**
 * The setting to write, if any, and a note. Asked once, on a terminal, while the config file does
 * not say yet; without a terminal nothing changes (scripts and CI runs stay as they were).
 */
export async function decideModelExtraction(
  o: { modelExtraction?: ModelExtraction; uninstall?: boolean; json?: boolean },
  setting: () => ExtractionSetting,
): Promise<{ to?: ModelExtraction; note?: string }> {
  if (o.uninstall) return {};
  if (o.modelExtraction) return { to: o.modelExtraction };
  const now = setting();
  if (now.extractor !== undefined) return {};
  if (process.stdin.isTTY && process.stdout.isTTY && !o.json) return { to: await ask(now.dailyTokenBudget) };
  return { note: `memory extraction through your Claude login is off; to turn it on: ${TURN_ON}` };
}

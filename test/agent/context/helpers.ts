/** Builders for histories in the context tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { resultText } from '../../../src/agent/context/blocks.js';

export const user = (text: string): MessageParam => ({ role: 'user', content: text });
export const assistant = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** An assistant tool_use and the user message with its result. */
export function call(id: string, name: string, input: Record<string, unknown>, output: string): [MessageParam, MessageParam] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
  ];
}

/** The tool_result block with this id, wherever it is. */
export function result(messages: readonly MessageParam[], id: string): ToolResultBlockParam {
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result' && b.tool_use_id === id) return b;
  }
  throw new Error(`no result ${id}`);
}

export const textOf = (messages: readonly MessageParam[], id: string): string => resultText(result(messages, id));

/** Everything a request would show the model, as one string. */
export const allText = (messages: readonly MessageParam[]): string => JSON.stringify(messages);

/** A temp dir and its removal. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ns-context-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Deterministic filler text of `n` characters, in lines. */
export function filler(n: number, seed = 'x'): string {
  const line = `${seed} lorem ipsum dolor sit amet consectetur ${'-'.repeat(20)}\n`;
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

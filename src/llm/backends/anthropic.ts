/**
 * The Anthropic API as a ModelBackend: one structured question is one streamed Messages request
 * whose only tool has the question's schema as its input schema, and tool_choice forces it. An
 * answer in text instead (an endpoint that ignores tool_choice) is parsed as JSON.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { BackendAnswer, ModelBackend, ModelUsage, StructuredQuestion } from '../backend.js';
import { classifyModelError } from '../errors.js';
import { parseStructured } from '../structured.js';

const TOOL = 'answer';
const AnyObject = z.record(z.string(), z.unknown());

function usageOf(msg: Anthropic.Messages.Message): ModelUsage {
  const u = msg.usage;
  return { inputTokens: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), outputTokens: u.output_tokens };
}

export function anthropicBackend(client: Anthropic, model: string): ModelBackend {
  return {
    name: 'anthropic',
    model,
    async ask(q: StructuredQuestion): Promise<BackendAnswer> {
      const started = Date.now();
      const ms = () => Date.now() - started;
      let msg: Anthropic.Messages.Message;
      try {
        msg = await client.messages
          .stream(
            {
              model,
              max_tokens: q.maxOutputTokens,
              system: q.system,
              tools: [{ name: TOOL, description: 'Give the answer.', input_schema: q.schema as Anthropic.Messages.Tool.InputSchema }],
              tool_choice: { type: 'tool', name: TOOL },
              messages: [{ role: 'user', content: q.prompt }],
            },
            q.signal ? { signal: q.signal } : {},
          )
          .finalMessage();
      } catch (err) {
        const e = classifyModelError(err);
        return { ok: false, code: e.code, message: e.message, ms: ms() };
      }
      const usage = usageOf(msg);
      const use = msg.content.find((b) => b.type === 'tool_use');
      if (use) return { ok: true, value: use.input, usage, ms: ms() };
      const text = msg.content.find((b) => b.type === 'text');
      const parsed = parseStructured(text?.type === 'text' ? text.text : '', AnyObject);
      if (!parsed.ok) return { ok: false, code: parsed.error.code, message: parsed.error.message, usage, ms: ms() };
      return { ok: true, value: parsed.value, usage, ms: ms() };
    },
  };
}

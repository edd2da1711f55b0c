/**
 * The readable account of an agent run: what `nightshift output` / `tail -f` show. One line (or an
 * indented block) per thing that happened: the assistant's text (▸), each tool call with short
 * arguments and the size of its result (⚙), context events and health (◆), the end (✔ / ✖).
 * Never a credential, never a task's environment.
 */
import { humanSize } from '../api/format.js';
import type { ContextEvent, HealthReport } from './context/index.js';

export type Write = (text: string) => void;

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** Bytes for a sentence: `812 B`, `1.2 KB` (as the task tools say them). */
export const size = humanSize;

const indent = (text: string): string => text.replace(/\n/g, '\n  ');

/** The line for a context event, or undefined for events the log leaves out. */
export function contextLine(e: ContextEvent): string | undefined {
  switch (e.type) {
    case 'iteration':
      return (
        `context: turn ${e.iteration} · ${n(e.tokens)} tokens${e.exact ? ' (counted)' : ''} · ${pct(e.pctOfWindow)} of window · ${e.zone}` +
        (e.turnsUntilRed !== null ? ` · ~${e.turnsUntilRed} turns until red` : '')
      );
    case 'zone_change':
      return `context: zone ${e.from} → ${e.to} (${n(e.tokens)} tokens)`;
    case 'tier':
      return `context: ${e.tier} cleared ${e.blocks} block${e.blocks === 1 ? '' : 's'} (~${n(e.freedTokens)} tokens)`;
    case 'persisted':
      return `context: tool output saved to disk (${size(e.bytes)}): ${e.path}`;
    case 'truncated':
      return `context: tool output cut from ${n(e.chars)} characters (${e.reason})`;
    case 'exact_count':
      return `context: counted ${n(e.exact)} tokens (estimate ${n(e.estimate)})`;
    case 'invariants_repaired':
      return `context: history repaired: ${e.repairs.join('; ')}`;
    case 'component_limit':
      return `context: ${e.component} past its ${e.level} limit (${n(e.tokens)} of ${n(e.limit)} tokens)`;
    case 'compaction':
      return e.ok
        ? `context: compacted (${e.trigger}): ${n(e.beforeTokens)} → ${n(e.afterTokens ?? 0)} tokens, ${e.keptMessages ?? 0} newest messages kept, summary ${n(e.summaryTokens ?? 0)} tokens`
        : `context: compaction (${e.trigger}) failed: ${e.error?.message ?? 'unknown'}`;
    case 'breaker_open':
      return `context: compaction switched off after ${e.failures} failures in a row (eviction only from now on)`;
    case 'overflow':
      return e.action === 'retry'
        ? `context: overflow (${e.code}) → compacted, retrying: ${e.message}`
        : `context: overflow (${e.code}) again → giving up: ${e.message}`;
    case 'checkpoint':
      return `context: checkpoint v${e.version} saved${e.mdPath ? ` (${e.mdPath})` : ''}`;
    case 'memory_extraction_failed':
      return `context: memory extraction failed: ${e.message}`;
    case 'resumed':
      return `context: resumed from checkpoint v${e.version} with ${e.messages} messages`;
    default:
      return undefined;
  }
}

export function healthLine(h: HealthReport): string {
  return (
    `health: ${n(h.tokens)}/${n(h.inputBudget)} input tokens (${pct(h.utilisation)}, ${h.zone}) · velocity ${n(h.velocity)}/turn · ` +
    `${h.compaction.count} compaction${h.compaction.count === 1 ? '' : 's'} · ${n(h.evictionsTotal)} blocks cleared · ` +
    `compression ×${h.compressionRatio.toFixed(1)} · tool results ${pct(h.toolResultShare)} of history`
  );
}

export class AgentLog {
  constructor(private readonly write: Write = (t) => void process.stdout.write(t)) {}

  line(mark: string, text: string): void {
    this.write(`${mark} ${indent(text)}\n`);
  }

  info(text: string): void {
    this.line('●', text);
  }

  assistant(text: string): void {
    if (text.trim()) this.line('▸', `assistant: ${text.trim()}`);
  }

  tool(brief: string, result: { bytes: number; isError: boolean; note?: string }): void {
    const r = result.isError ? `error (${size(result.bytes)})${result.note ? `: ${result.note}` : ''}` : size(result.bytes);
    this.line('⚙', `${brief} → ${r}`);
  }

  context(e: ContextEvent): void {
    const l = contextLine(e);
    if (l) this.line('◆', l);
  }

  health(h: HealthReport): void {
    this.line('◆', healthLine(h));
  }

  done(text: string): void {
    this.line('✔', text);
  }

  failed(text: string): void {
    this.line('✖', text);
  }
}

/**
 * What model calls cost, per local day, backend and purpose: calls, tokens, USD when the backend
 * says, and how often the heuristics answered instead (by reason). Saved after every call (temp file
 * + rename), so a crash loses at most the call under way; it also holds the daily token budget that
 * extraction and the dream's review share.
 */
import { Low } from 'lowdb';
import { z } from 'zod';
import { UsageDay, type UsageRow } from '../api/model-usage.js';
import { now } from '../clock.js';
import type { Logger } from '../log.js';
import { DurableJsonFile, GroupCommit } from '../sys/state-file.js';
import type { ModelUsage, StructuredQuestion } from './backend.js';

const LedgerFile = z.object({ version: z.literal(1), days: z.array(UsageDay) });
type LedgerData = z.infer<typeof LedgerFile>;

/** Days kept (older ones are dropped as new days begin). */
const KEEP_DAYS = 400;

export interface UsageEvent {
  backend: string;
  purpose: StructuredQuestion['purpose'];
  /** A call was made (a fallback for want of budget makes none). */
  call: boolean;
  usage?: ModelUsage;
  /** Why the heuristics answered instead: a code (`daily_budget`), or `code: message`. */
  fallback?: string;
}

/** YYYY-MM-DD of the local day. */
export function localDay(d: Date = now()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export class UsageLedger {
  private readonly group: GroupCommit;

  private constructor(
    private readonly db: Low<LedgerData>,
    private readonly log: Logger,
    /** Input + output tokens a day; reload may change it. */
    public dailyBudget: number,
  ) {
    this.group = new GroupCommit(() => db.write());
  }

  static async open(file: string, dailyBudget: number, log: Logger): Promise<UsageLedger> {
    const adapter = new DurableJsonFile(file, LedgerFile);
    // Counts, not memories: a ledger that cannot be read is set aside and counting starts again.
    const { data, setAside } = adapter.readOrSetAside();
    if (setAside) log.error({ movedTo: setAside.movedTo }, 'the model usage ledger could not be read; it was moved aside and counting starts again');
    const db = new Low(adapter, data ?? { version: 1, days: [] });
    return new UsageLedger(db, log, dailyBudget);
  }

  /** Input + output tokens spent today. */
  spentToday(): number {
    const today = this.db.data.days.find((d) => d.date === localDay());
    return today?.rows.reduce((n, r) => n + r.inputTokens + r.outputTokens, 0) ?? 0;
  }

  /** Whether today's budget still has room (a budget of 0 allows no model call). */
  hasBudget(): boolean {
    return this.spentToday() < this.dailyBudget;
  }

  /** The last `n` local days that had calls or fallbacks, newest first. */
  days(n: number): UsageDay[] {
    const oldest = new Date(now());
    oldest.setDate(oldest.getDate() - (n - 1));
    const from = localDay(oldest);
    return structuredClone(this.db.data.days.filter((d) => d.date >= from).sort((a, b) => b.date.localeCompare(a.date)));
  }

  /** Counts one event and saves; never rejects (a ledger that cannot be saved is the log's to tell). */
  async record(e: UsageEvent): Promise<void> {
    const row = this.row(localDay(), e.backend, e.purpose);
    if (e.call) row.calls++;
    if (e.usage) {
      row.inputTokens += e.usage.inputTokens;
      row.outputTokens += e.usage.outputTokens;
      if (e.usage.costUsd !== undefined) row.costUsd = (row.costUsd ?? 0) + e.usage.costUsd;
    }
    if (e.fallback !== undefined) {
      const reason = e.fallback.split(':')[0]?.trim() || 'unknown';
      row.fallbacks[reason] = (row.fallbacks[reason] ?? 0) + 1;
    }
    try {
      await this.group.commit();
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'the model usage ledger could not be saved');
    }
  }

  private row(date: string, backend: string, purpose: UsageRow['purpose']): UsageRow {
    const days = this.db.data.days;
    let day = days.find((d) => d.date === date);
    if (!day) {
      day = { date, rows: [] };
      days.push(day);
      days.sort((a, b) => a.date.localeCompare(b.date));
      if (days.length > KEEP_DAYS) days.splice(0, days.length - KEEP_DAYS);
    }
    let row = day.rows.find((r) => r.backend === backend && r.purpose === purpose);
    if (!row) {
      row = { backend, purpose, calls: 0, inputTokens: 0, outputTokens: 0, fallbacks: {} };
      day.rows.push(row);
    }
    return row;
  }
}

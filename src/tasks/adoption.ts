/**
 * Tasks left running by an earlier daemon: settled at start when they ended meanwhile, otherwise
 * re-adopted and polled for their exit (their wrapper is not our child, so no exit event comes).
 */
import type { Logger } from '../log.js';
import { judge } from './adopt.js';
import type { Entry } from './model.js';

const POLL_MS = 1000;

export interface AdoptionContext {
  log: Logger;
  dir(id: string): string;
  entry(id: string): Entry | undefined;
  /** `endedAt`: when the exit file was written, not when it was found. */
  settle(id: string, code: number, endedAt: Date): Promise<void>;
  settleLost(id: string, reason: string, endedAt?: Date): Promise<void>;
  /** A re-adopted task: its silence clock starts from its current output. */
  watch(entry: Entry): Promise<void>;
}

export class Adoption {
  private readonly adopted = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly c: AdoptionContext) {}

  /** Settles or re-adopts each running entry, then polls the adopted ones until `stop`. */
  async start(running: Entry[]): Promise<void> {
    for (const e of running) {
      if (!e.run) {
        await this.c.settleLost(e.task.id, 'no process information was saved for it');
        continue;
      }
      const v = await judge(this.c.dir(e.task.id), e.run);
      if (v.kind === 'finished') await this.c.settle(e.task.id, v.code, v.endedAt);
      else if (v.kind === 'lost') await this.c.settleLost(e.task.id, v.reason, v.endedAt);
      else {
        this.adopted.add(e.task.id);
        await this.c.watch(e);
      }
    }
    if (this.adopted.size > 0) this.c.log.info({ tasks: [...this.adopted] }, 're-adopted running tasks');
    this.timer = setInterval(() => {
      this.poll().catch((err: unknown) => this.c.log.error({ err }, 'checking re-adopted tasks failed'));
    }, POLL_MS);
    this.timer.unref();
  }

  /** The task has ended (by whatever path): no more polling for it. */
  forget(id: string): void {
    this.adopted.delete(id);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    for (const id of [...this.adopted]) {
      const e = this.c.entry(id);
      if (!e?.run || e.task.status !== 'running') {
        this.adopted.delete(id);
        continue;
      }
      const v = await judge(this.c.dir(id), e.run);
      if (v.kind === 'finished') await this.c.settle(id, v.code, v.endedAt);
      else if (v.kind === 'lost') await this.c.settleLost(id, v.reason, v.endedAt);
      // 'child-only': still running, but nobody is left to record how it ends; keep polling.
    }
  }
}

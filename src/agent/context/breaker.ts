/**
 * Circuit breaker for compaction. A summary call that keeps failing (the request itself too large,
 * the model refusing, the API down) must not be retried before every request: Claude Code once saw
 * a session fail 3,272 compactions in a row. After `maxFailures` consecutive failures it opens and
 * stays open; only a success (a manual compaction may still be tried) closes it.
 */
export class CircuitBreaker {
  private consecutive = 0;
  private total = 0;

  constructor(readonly maxFailures = 3) {}

  get open(): boolean {
    return this.consecutive >= this.maxFailures;
  }

  get consecutiveFailures(): number {
    return this.consecutive;
  }

  get totalFailures(): number {
    return this.total;
  }

  recordSuccess(): void {
    this.consecutive = 0;
  }

  /** True when this failure opened the breaker. */
  recordFailure(): boolean {
    this.total++;
    this.consecutive++;
    return this.consecutive === this.maxFailures;
  }
}

import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/agent/context/breaker.js';

describe('circuit breaker', () => {
  it('opens after 3 consecutive failures and says when', () => {
    const b = new CircuitBreaker(3);
    expect(b.recordFailure()).toBe(false);
    expect(b.recordFailure()).toBe(false);
    expect(b.open).toBe(false);
    expect(b.recordFailure()).toBe(true);
    expect(b.open).toBe(true);
    expect(b.recordFailure()).toBe(false); // already open
    expect(b.totalFailures).toBe(4);
  });

  it('a success resets the count', () => {
    const b = new CircuitBreaker(3);
    b.recordFailure();
    b.recordFailure();
    b.recordSuccess();
    b.recordFailure();
    expect(b.open).toBe(false);
    expect(b.consecutiveFailures).toBe(1);
  });
});

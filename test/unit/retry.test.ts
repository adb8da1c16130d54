import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../../src/client/retry.js';

describe('retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('backs off exponentially, capped, and prefers Retry-After', () => {
    expect(backoffMs(0, DEFAULT_RETRY)).toBeLessThan(DEFAULT_RETRY.baseDelayMs * 2);
    expect(backoffMs(2, DEFAULT_RETRY)).toBeGreaterThanOrEqual(DEFAULT_RETRY.baseDelayMs * 4);
    expect(backoffMs(20, DEFAULT_RETRY)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(backoffMs(0, DEFAULT_RETRY, 1234)).toBe(1234);
  });
});

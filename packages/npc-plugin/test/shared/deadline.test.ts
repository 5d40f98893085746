import { describe, expect, it } from 'vitest';
import { DeadlineError, deadline, withDeadline } from '../../src/shared/deadline.js';

describe('deadline', () => {
  it('aborts after its time with a DeadlineError and says so', async () => {
    const guard = deadline(null, 20);
    await new Promise((resolve) => guard.signal.addEventListener('abort', resolve));
    expect(guard.timedOut()).toBe(true);
    expect(guard.signal.reason).toBeInstanceOf(DeadlineError);
  });

  it('follows its parent, and not as a timeout', () => {
    const parent = new AbortController();
    const guard = deadline(parent.signal, 10_000);
    parent.abort(new Error('stop'));
    expect(guard.signal.aborted).toBe(true);
    expect(guard.timedOut()).toBe(false);
    expect((guard.signal.reason as Error).message).toBe('stop');
  });

  it('starts aborted under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort();
    expect(deadline(parent.signal, 10_000).signal.aborted).toBe(true);
  });

  it('does not fire once cleared', async () => {
    const guard = deadline(null, 10);
    guard.clear();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(guard.signal.aborted).toBe(false);
  });

  it('withDeadline hands the work a signal and clears it afterwards', async () => {
    let seen: AbortSignal | undefined;
    const result = await withDeadline(null, 20, async (signal) => {
      seen = signal;
      return 42;
    });
    expect(result).toBe(42);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(seen?.aborted).toBe(false);
  });
});

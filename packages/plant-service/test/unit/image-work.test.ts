import { describe, expect, it } from 'vitest';
import { ServiceUnavailable } from '../../src/errors.js';
import { imageWork } from '../../src/resources/images/image-work.js';

describe('imageWork', () => {
  it('runs at most `concurrency` at once, queues `maxWaiting` more, and refuses the rest with a 503', async () => {
    const work = imageWork({ concurrency: 2, maxWaiting: 1 });
    const releases: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const task = () =>
      work.run(
        () =>
          new Promise<void>((resolve) => {
            running++;
            most = Math.max(most, running);
            releases.push(() => {
              running--;
              resolve();
            });
          }),
      );
    const accepted = [task(), task(), task()];
    await new Promise((resolve) => setImmediate(resolve));
    expect(work.load).toEqual({ running: 2, waiting: 1 });
    const refused = await task().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailable);
    expect((refused as ServiceUnavailable).retryAfterSeconds).toBe(2);
    while (releases.length > 0 || work.load.running > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(accepted);
    expect(most).toBe(2);
  });
});

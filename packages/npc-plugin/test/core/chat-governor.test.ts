import { describe, expect, it } from 'vitest';
import { CHAT_BACKLOG, CHAT_BURST, CHAT_INTERVAL_MS, ChatGovernor } from '../../src/core/chat-governor.js';
import { ChatOutbox, LINE_PAUSE_MS } from '../../src/core/chat-outbox.js';
import { FakeGame } from '../helpers/fake-game.js';
import { eventually } from '../helpers/minecraft.js';

/**
 * Vanilla's spam counter for one client: +20 per line, -1 per tick; returns the highest value it
 * reaches for lines sent at `times` (ms) on a server running `tps` ticks a second.
 */
function peakCounter(times: number[], tps: number): number {
  let counter = 0;
  let peak = 0;
  let last = 0;
  for (const at of times) {
    counter = Math.max(0, counter - Math.floor(((at - last) / 1000) * tps));
    last = at;
    counter += 20;
    peak = Math.max(peak, counter);
  }
  return peak;
}

/** When the outbox would send lines queued at `arrivals` (ms, ascending), following the governor. */
function sendTimes(arrivals: number[]): number[] {
  const governor = new ChatGovernor(undefined, 0);
  const times: number[] = [];
  for (const arrival of arrivals) {
    const previous = times.at(-1);
    let now = previous === undefined ? arrival : Math.max(arrival, previous + LINE_PAUSE_MS);
    now += governor.delay(now);
    governor.take(now);
    times.push(now);
  }
  return times;
}
const atOnce = (count: number, at = 0) => Array.from({ length: count }, () => at);

describe('the chat governor', () => {
  it('lets a burst out at once, then one line per interval', () => {
    const times = sendTimes(atOnce(CHAT_BURST + 3));
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.slice(0, CHAT_BURST - 1).every((gap) => gap === LINE_PAUSE_MS)).toBe(true);
    expect(Math.max(...gaps.slice(CHAT_BURST))).toBeLessThanOrEqual(CHAT_INTERVAL_MS);
    expect(Math.min(...gaps.slice(CHAT_BURST))).toBeGreaterThanOrEqual(CHAT_INTERVAL_MS - 1);
  });

  it("keeps vanilla's spam counter at 20 × burst on a full-speed server, and under 200 at 14 ticks a second", () => {
    const times = sendTimes(atOnce(500));
    expect(peakCounter(times, 20)).toBeLessThanOrEqual(20 * CHAT_BURST);
    expect(peakCounter(times, 14)).toBeLessThan(200);
    // Bursts that come back after a pause never stack: the bucket holds at most CHAT_BURST lines.
    const bursts = [...atOnce(30), ...atOnce(30, 60_000), ...atOnce(30, 61_000), ...atOnce(3, 200_000)];
    expect(peakCounter(sendTimes(bursts), 20)).toBeLessThanOrEqual(20 * CHAT_BURST);
  });
});

describe('the chat outbox', () => {
  it('passes every line through the gate, whatever queued it', async () => {
    const game = new FakeGame();
    await game.connect({ signal: AbortSignal.timeout(1000) });
    const outbox = new ChatOutbox(game, { rate: { burst: 100, intervalMs: 1 } });
    outbox.enqueue(['/op Mallory', '§', '\u2215kick Alice', 'x'.repeat(300)]);
    outbox.enqueue(['/tell me'], 'Alice');
    await outbox.idle();
    expect(game.said).toEqual([
      { text: 'op Mallory', to: null },
      { text: 'kick Alice', to: null },
      { text: 'x'.repeat(256), to: null },
      { text: 'tell me', to: 'Alice' },
    ]);
  });

  it(`keeps at most ${CHAT_BACKLOG} lines waiting and reports the rest as dropped`, async () => {
    const game = new FakeGame();
    await game.connect({ signal: AbortSignal.timeout(1000) });
    const dropped: [number, string | null][] = [];
    const outbox = new ChatOutbox(game, {
      rate: { burst: 1, intervalMs: 60_000 },
      onDropped: (count, to) => dropped.push([count, to]),
    });
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    // The first line leaves at once; the next wait a minute in the backlog.
    expect(outbox.enqueue(lines.slice(0, 1))).toHaveLength(1);
    await eventually(
      () => game.said.length,
      (n) => n === 1,
    );
    expect(outbox.enqueue(lines, 'Bob')).toHaveLength(CHAT_BACKLOG);
    expect(dropped).toEqual([[30 - CHAT_BACKLOG, 'Bob']]);
    // A whole message that does not fit is refused entirely.
    expect(outbox.enqueue(['one more'], null, true)).toEqual([]);
    expect(dropped.at(-1)).toEqual([1, null]);
    await game.disconnect();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionReport, ConnectionSupervisor } from '../../src/core/connection-supervisor.js';
import type { GameEvent } from '../../src/core/game.js';
import { BehaviourStateMachine } from '../../src/core/state-machine.js';
import { FakeGame } from '../helpers/fake-game.js';
import { eventually } from '../helpers/minecraft.js';

/** A game whose server can kick the NPC, and that can refuse the next joins. */
class KickingGame extends FakeGame {
  readonly #listeners = new Set<(event: GameEvent) => void>();
  refuse = 0;

  override onEvent(listener: (event: GameEvent) => void): () => void {
    this.#listeners.add(listener);
    const unsubscribe = super.onEvent(listener);
    return () => {
      this.#listeners.delete(listener);
      unsubscribe();
    };
  }

  override async connect(options: Parameters<FakeGame['connect']>[0]): Promise<void> {
    if (this.refuse > 0) {
      this.refuse -= 1;
      throw new Error('connection refused');
    }
    await super.connect(options);
  }

  async kick(reason: string): Promise<void> {
    await this.disconnect();
    for (const listener of this.#listeners) listener({ type: 'disconnected', reason });
  }
}

const silent = { info: () => undefined, warn: () => undefined };
const MIN = 40;

describe('ConnectionSupervisor backoff', () => {
  let supervisor: ConnectionSupervisor | undefined;
  afterEach(async () => {
    await supervisor?.close();
  });

  function start(stableAfterMs: number) {
    const game = new KickingGame();
    const reports: ConnectionReport[] = [];
    supervisor = new ConnectionSupervisor(
      game,
      new BehaviourStateMachine(game),
      { minDelayMs: MIN, maxDelayMs: 60_000, connectTimeoutMs: 1000, stableAfterMs },
      silent,
      (report) => reports.push(report),
    );
    const joins = () => reports.filter((report) => report.status === 'connected').length;
    /** The wait the supervisor chose after the last loss, read from /status. */
    const nextDelay = () => Date.parse(supervisor!.status().next_attempt_at!) - Date.now();
    return { game, supervisor, joins, nextDelay };
  }

  it('counts a kick right after the join as a failure, so the retries slow down', async () => {
    const { game, supervisor, joins, nextDelay } = start(60_000);
    await supervisor.connectNow();
    const delays: number[] = [];
    for (let round = 1; round <= 4; round++) {
      await game.kick('You are banned from this server');
      delays.push(nextDelay());
      await eventually(joins, (n) => n === round + 1, 5000, 5);
    }
    // ±20 % jitter around 2, 4, 8 and 16 times the shortest delay; without counting quick kicks every
    // one would be the shortest delay.
    const expected = [2, 4, 8, 16].map((factor) => factor * MIN);
    delays.forEach((delay, i) => {
      expect(delay).toBeGreaterThan(expected[i]! * 0.8 - 10);
      expect(delay).toBeLessThanOrEqual(expected[i]! * 1.2);
    });
  });

  it('starts again from the shortest delay once a connection has lasted stableAfterMs', async () => {
    const { game, supervisor, joins, nextDelay } = start(150);
    await supervisor.connectNow();
    await game.kick('quick');
    expect(nextDelay()).toBeGreaterThan(2 * MIN * 0.8 - 10);
    await eventually(joins, (n) => n === 2, 5000, 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await game.kick('after a while');
    expect(nextDelay()).toBeLessThanOrEqual(MIN * 1.2);
  });

  it('grows with failed joins and a quick kick continues that count instead of resetting it', async () => {
    const { game, supervisor, joins, nextDelay } = start(60_000);
    game.refuse = 2;
    await expect(supervisor.connectNow()).rejects.toThrow(/could not join/);
    expect(nextDelay()).toBeGreaterThan(2 * MIN * 0.8 - 10);
    await eventually(
      () => supervisor.status().attempts,
      (n) => n === 2,
      5000,
      5,
    );
    await eventually(joins, (n) => n === 1, 5000, 5);
    await game.kick('quick');
    // Two failed joins and one quick kick: the fourth step of the backoff.
    expect(nextDelay()).toBeGreaterThan(8 * MIN * 0.8 - 10);
  });
});

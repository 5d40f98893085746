import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { GameAdapter } from '../../src/core/game.js';
import {
  type Behaviour,
  BehaviourStateMachine,
  canTransition,
  NPC_STATES,
  TRANSITIONS,
} from '../../src/core/state-machine.js';
import { Conflict } from '../../src/errors.js';
import { packageRoot } from '../helpers/npc-process.js';

/** The machine hands the game to behaviours but never calls it; these behaviours do not use it. */
const noGame = {} as GameAdapter;

/** A behaviour that runs until aborted, or for `ms` when given. */
const waiting = (
  state: 'moving' | 'following' | 'emoting',
  ms?: number,
  timeoutMs = 5000,
): Behaviour<void> => ({
  state,
  kind: state === 'moving' ? 'move' : state === 'following' ? 'follow' : 'emote',
  timeoutMs: () => timeoutMs,
  describe: () => ({}),
  run: async (_params, { signal }) => {
    await sleep(ms ?? 60_000, undefined, { signal }).catch(() => undefined);
  },
});

function machine(): BehaviourStateMachine {
  const m = new BehaviourStateMachine(noGame);
  m.setConnectionState('connecting');
  m.setConnectionState('idle');
  return m;
}

describe('behaviour state machine', () => {
  it('matches the diagram in the package README, edge for edge', async () => {
    const readme = await readFile(join(packageRoot, 'README.md'), 'utf8');
    const diagram = /```mermaid\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const edges = new Set([...diagram.matchAll(/^\s*(\w+) --> (\w+)/gm)].map((m) => `${m[1]}->${m[2]}`));
    const table = new Set(NPC_STATES.flatMap((from) => TRANSITIONS[from].map((to) => `${from}->${to}`)));
    expect(edges).toEqual(table);
  });

  it('starts offline and allows only connecting from there', () => {
    const m = new BehaviourStateMachine(noGame);
    expect(m.state).toBe('offline');
    expect(canTransition('offline', 'moving')).toBe(false);
    expect(() => m.setConnectionState('idle')).toThrow(Conflict);
  });

  it('refuses a command it cannot take in the current state with a Conflict carrying the state', async () => {
    const m = new BehaviourStateMachine(noGame);
    const error = await m.start(waiting('moving'), undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Conflict);
    expect((error as Conflict).details.state).toBe('offline');
  });

  it('runs a behaviour to success and rests in idle', async () => {
    const m = machine();
    const { goal, done } = await m.start(waiting('emoting', 20), undefined);
    expect(goal.status).toBe('active');
    expect(m.state).toBe('emoting');
    expect((await done).status).toBe('succeeded');
    expect(m.state).toBe('idle');
    expect(m.goal?.id).toBe(goal.id);
  });

  it('pre-empts the running behaviour with a new command', async () => {
    const m = machine();
    const first = await m.start(waiting('following'), undefined);
    const second = await m.start(waiting('moving'), undefined);
    expect((await first.done).status).toBe('preempted');
    expect(m.state).toBe('moving');
    expect(m.goal?.id).toBe(second.goal.id);
    expect((await m.stop())?.status).toBe('cancelled');
    expect(m.state).toBe('idle');
  });

  it('ends a behaviour that overruns its timeout as timed_out', async () => {
    const m = machine();
    const { done } = await m.start(waiting('moving', undefined, 50), undefined);
    const goal = await done;
    expect(goal).toMatchObject({ status: 'timed_out', error: 'timed out' });
    expect(m.state).toBe('idle');
  });

  it('records a failure with its message', async () => {
    const m = machine();
    const failing: Behaviour<void> = {
      ...waiting('moving'),
      run: async () => Promise.reject(new Error('no path')),
    };
    const { done } = await m.start(failing, undefined);
    expect(await done).toMatchObject({ status: 'failed', error: 'no path' });
  });

  it('drops to offline from any state on a disconnect, aborting what runs', async () => {
    const m = machine();
    const { done } = await m.start(waiting('following'), undefined);
    m.setConnectionState('offline');
    expect(m.state).toBe('offline');
    expect((await done).status).toBe('disconnected');
    expect(m.state).toBe('offline');
  });

  it('tells listeners about every change', async () => {
    const m = new BehaviourStateMachine(noGame);
    const seen: string[] = [];
    m.onStateChange((state, previous) => seen.push(`${previous}->${state}`));
    m.setConnectionState('connecting');
    m.setConnectionState('idle');
    await (await m.start(waiting('emoting', 5), undefined)).done;
    expect(seen).toEqual(['offline->connecting', 'connecting->idle', 'idle->emoting', 'emoting->idle']);
  });
});

describe('behaviour state machine defects', () => {
  it('fails a goal whose behaviour throws before its first await, and rests in idle', async () => {
    const m = machine();
    const throwing: Behaviour<void> = {
      ...waiting('following', undefined, 60_000),
      run: () => {
        throw new Error('the bot is not ready');
      },
    };
    const { goal, done } = await m.start(throwing, undefined);
    expect(goal.kind).toBe('follow');
    expect(await done).toMatchObject({ status: 'failed', error: 'the bot is not ready' });
    expect(m.state).toBe('idle');
    expect(m.goal?.id).toBe(goal.id);
  });

  it('a stop that arrives while a queued start waits for the old goal also cancels that start', async () => {
    const m = machine();
    // Lets go of the signal only 300 ms after it aborts, so the next start has to wait in the queue.
    const slowToRelease: Behaviour<void> = {
      ...waiting('following'),
      run: async (_params, { signal }) => {
        await sleep(60_000, undefined, { signal }).catch(() => undefined);
        await sleep(300);
      },
    };
    await m.start(slowToRelease, undefined);
    const queued = m.start(waiting('moving'), undefined);
    await sleep(20);
    const stopped = m.stop();
    const { goal, done } = await queued;
    await stopped;
    expect(goal.status).toBe('cancelled');
    expect((await done).status).toBe('cancelled');
    await sleep(50);
    expect(m.state).toBe('idle');
  });

  it('a start queued after a stop still runs', async () => {
    const m = machine();
    await m.start(waiting('following'), undefined);
    const stopped = m.stop();
    const { goal } = await m.start(waiting('moving'), undefined);
    expect((await stopped)?.status).toBe('cancelled');
    expect(goal.status).toBe('active');
    expect(m.state).toBe('moving');
    await m.stop();
  });
});

import { Conflict } from '../errors.js';
import { deadline } from '../shared/deadline.js';
import type { GameAdapter } from './game.js';

/**
 * The behaviour state machine. States and transitions are data; the diagram in the
 * package README is drawn from this table, and test/core/state-machine.test.ts checks both agree.
 */
export const NPC_STATES = [
  'offline',
  'connecting',
  'idle',
  'moving',
  'following',
  'talking',
  'emoting',
] as const;
export type NpcState = (typeof NPC_STATES)[number];

/** A body action pre-empts another one; any state can drop to offline (disconnect, kick, restart). */
export const TRANSITIONS: Readonly<Record<NpcState, readonly NpcState[]>> = {
  offline: ['connecting'],
  connecting: ['idle', 'offline'],
  idle: ['moving', 'following', 'talking', 'emoting', 'offline'],
  moving: ['idle', 'moving', 'following', 'emoting', 'offline'],
  following: ['idle', 'moving', 'following', 'emoting', 'offline'],
  talking: ['idle', 'moving', 'following', 'emoting', 'offline'],
  emoting: ['idle', 'moving', 'following', 'emoting', 'offline'],
};

export function canTransition(from: NpcState, to: NpcState): boolean {
  return TRANSITIONS[from].includes(to);
}

export type GoalKind = 'move' | 'follow' | 'emote' | 'talk';
export type GoalStatus =
  | 'active'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'preempted'
  | 'timed_out'
  | 'disconnected';

export interface GoalProgress {
  distance_remaining: number;
  initial_distance: number;
  /** 0 at the start, 1 at the goal. */
  fraction: number;
}

/** The current or last goal, as `/status` shows it. */
export interface GoalRecord {
  id: number;
  kind: GoalKind;
  target: Record<string, unknown>;
  status: GoalStatus;
  started_at: string;
  ended_at: string | null;
  progress: GoalProgress | null;
  error: string | null;
}

export interface BehaviourContext {
  readonly game: GameAdapter;
  /** Aborts on pre-emption, disconnect, `stop` or the behaviour's timeout. */
  readonly signal: AbortSignal;
  progress(progress: GoalProgress): void;
}

/** One behaviour per file under behaviours/ (mineflayer-statemachine habit: enter/run/exit). */
export interface Behaviour<P> {
  readonly state: NpcState;
  readonly kind: GoalKind;
  timeoutMs(params: P): number;
  describe(params: P): Record<string, unknown>;
  /** Resolves when the goal is reached; rejects (or resolves after the signal aborts) otherwise. */
  run(params: P, context: BehaviourContext): Promise<void>;
}

/** Why the machine aborted a running behaviour; read back to set the goal's final status. */
class StopReason extends Error {
  constructor(readonly status: 'cancelled' | 'preempted' | 'disconnected') {
    super(status);
  }
}

interface Running {
  goal: GoalRecord;
  controller: AbortController;
  done: Promise<GoalRecord>;
}

type Listener = (state: NpcState, previous: NpcState) => void;

/** How long a pre-empted behaviour may take to let go before the next one starts anyway. */
const RELEASE_TIMEOUT_MS = 2000;

export class BehaviourStateMachine {
  #state: NpcState = 'offline';
  #running: Running | null = null;
  #lastGoal: GoalRecord | null = null;
  #nextGoalId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  /** Counts `stop` calls; a queued start that sees a later count was stopped before it began. */
  #stops = 0;
  readonly #listeners = new Set<Listener>();
  readonly #goalListeners = new Set<(goal: GoalRecord) => void>();

  constructor(private readonly game: GameAdapter) {}

  get state(): NpcState {
    return this.#state;
  }

  /** The running goal, else the last one with its outcome. */
  get goal(): GoalRecord | null {
    return this.#running?.goal ?? this.#lastGoal;
  }

  onStateChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called with a goal when it starts (status `active`) and again when it ends. */
  onGoal(listener: (goal: GoalRecord) => void): () => void {
    this.#goalListeners.add(listener);
    return () => this.#goalListeners.delete(listener);
  }

  /** Connection states are set by the connection supervisor; a disconnect stops whatever runs. */
  setConnectionState(state: 'offline' | 'connecting' | 'idle'): void {
    if (state === 'offline') this.#running?.controller.abort(new StopReason('disconnected'));
    if (state === this.#state) return;
    if (!canTransition(this.#state, state)) {
      throw new Conflict(`cannot go from ${this.#state} to ${state}`, { state: this.#state });
    }
    this.#set(state);
  }

  /**
   * Starts a behaviour, pre-empting the running one where the table allows it. Returns the accepted
   * goal at once; `done` settles with the goal's final record.
   */
  start<P>(behaviour: Behaviour<P>, params: P): Promise<{ goal: GoalRecord; done: Promise<GoalRecord> }> {
    const ticket = this.#stops;
    const next = this.#queue.then(() => this.#start(behaviour, params, ticket));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Stops the running behaviour (`POST /move {stop: true}`) and every start queued before this stop,
   * so a start waiting for the old goal to let go never begins after it; returns the stopped goal.
   */
  async stop(): Promise<GoalRecord | null> {
    this.#stops += 1;
    const running = this.#running;
    running?.controller.abort(new StopReason('cancelled'));
    const stopped = this.#queue.then(() => (running ? settleWithin(running.done, RELEASE_TIMEOUT_MS) : null));
    this.#queue = stopped.catch(() => undefined);
    return stopped;
  }

  async #start<P>(
    behaviour: Behaviour<P>,
    params: P,
    ticket: number,
  ): Promise<{ goal: GoalRecord; done: Promise<GoalRecord> }> {
    if (ticket !== this.#stops) return this.#cancelledBeforeStart(behaviour, params);
    const from = this.#state;
    if (!canTransition(from, behaviour.state)) {
      throw new Conflict(`cannot start ${behaviour.kind} while ${from}`, { state: from });
    }
    const previous = this.#running;
    if (previous) {
      previous.controller.abort(new StopReason('preempted'));
      await settleWithin(previous.done, RELEASE_TIMEOUT_MS);
      if (this.#state === 'offline') throw new Conflict('the NPC went offline', { state: 'offline' });
      if (ticket !== this.#stops) return this.#cancelledBeforeStart(behaviour, params);
    }
    const controller = new AbortController();
    const guard = deadline(controller.signal, behaviour.timeoutMs(params));
    const signal = guard.signal;
    const goal = this.#newGoal(behaviour, params);
    const context: BehaviourContext = {
      game: this.game,
      signal,
      progress: (progress) => {
        goal.progress = progress;
      },
    };
    this.#set(behaviour.state);
    this.#notifyGoal(goal);
    const outcome = (fallback: GoalStatus) =>
      signal.aborted ? statusOf(controller.signal, guard.timedOut()) : fallback;
    // A behaviour that throws before its first await fails like one that rejects: the goal ends and
    // the deadline is cleared, instead of the state staying put with no goal.
    const done = new Promise<void>((resolve) => resolve(behaviour.run(params, context))).then(
      () => this.#finish(goal, outcome('succeeded'), null),
      (error: unknown) => this.#finish(goal, outcome('failed'), messageOf(error)),
    );
    void done.finally(guard.clear);
    const running: Running = { goal, controller, done };
    this.#running = running;
    return { goal, done };
  }

  #newGoal<P>(behaviour: Behaviour<P>, params: P): GoalRecord {
    return {
      id: this.#nextGoalId++,
      kind: behaviour.kind,
      target: behaviour.describe(params),
      status: 'active',
      started_at: new Date().toISOString(),
      ended_at: null,
      progress: null,
      error: null,
    };
  }

  /** A start overtaken by a later `stop` while it waited: recorded as cancelled, never run. */
  #cancelledBeforeStart<P>(
    behaviour: Behaviour<P>,
    params: P,
  ): { goal: GoalRecord; done: Promise<GoalRecord> } {
    const goal = this.#newGoal(behaviour, params);
    goal.status = 'cancelled';
    goal.ended_at = goal.started_at;
    this.#notifyGoal(goal);
    if (!this.#running) {
      this.#lastGoal = goal;
      // The goal it was to pre-empt has let go already; with nothing taking over, the NPC rests.
      if (this.#state !== 'offline' && this.#state !== 'connecting') this.#set('idle');
    }
    return { goal, done: Promise.resolve(goal) };
  }

  #finish(goal: GoalRecord, status: GoalStatus, error: string | null): GoalRecord {
    goal.status = status;
    goal.ended_at = new Date().toISOString();
    if (status === 'timed_out') goal.error = 'timed out';
    else if (status === 'failed') goal.error = error;
    this.#notifyGoal(goal);
    if (this.#running?.goal === goal) {
      this.#running = null;
      this.#lastGoal = goal;
      // A pre-empted behaviour hands over to its successor; otherwise the NPC rests.
      if (status !== 'preempted' && status !== 'disconnected' && this.#state !== 'offline') this.#set('idle');
    }
    return goal;
  }

  #notifyGoal(goal: GoalRecord): void {
    for (const listener of this.#goalListeners) listener(goal);
  }

  #set(state: NpcState): void {
    const previous = this.#state;
    if (previous === state) return;
    this.#state = state;
    for (const listener of this.#listeners) listener(state, previous);
  }
}

function statusOf(own: AbortSignal, timedOut: boolean): GoalStatus {
  if (own.aborted && own.reason instanceof StopReason) return own.reason.status;
  return timedOut ? 'timed_out' : 'cancelled';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the event stream carries; each kind's fields are listed in the package README. */
export interface NpcEventMap {
  chat: { player: string; message: string; distance: number | null; whisper: boolean };
  reply: { player: string | null; lines: string[]; whisper: boolean };
  state: { from: string; to: string };
  goal: { id: number; kind: string; target: Record<string, unknown>; status: string; error: string | null };
  player: { name: string; status: 'joined' | 'left' };
  connection: {
    status: 'connecting' | 'connected' | 'disconnected' | 'failed';
    attempt: number;
    reason: string | null;
  };
}
export type NpcEventKind = keyof NpcEventMap;
export const EVENT_KINDS: readonly NpcEventKind[] = [
  'chat',
  'reply',
  'state',
  'goal',
  'player',
  'connection',
];

export interface StoredEvent {
  /**
   * `<boot epoch>-<sequence>`: the epoch names this process (its start time in milliseconds, base 36),
   * the sequence increases by one per event from 1. An id kept from an earlier process therefore never
   * names an event of this one.
   */
  id: string;
  seq: number;
  kind: NpcEventKind;
  /** The event's fields plus `at`, an ISO 8601 timestamp. */
  data: Record<string, unknown>;
}

/** Why a resuming client must start over: its id is from another process, or its events are gone. */
export type ResetReason = 'restarted' | 'expired';

/** What a client resuming after `Last-Event-ID` gets. */
export interface Resume {
  /** Set when the stream cannot continue where the client left off; sent as a `reset` event first. */
  reset: { reason: ResetReason; id: string } | null;
  events: StoredEvent[];
}

/** Events kept for clients that resume with Last-Event-ID. */
export const EVENT_BUFFER_SIZE = 1000;

/** `Last-Event-ID` as this hub writes it, or a bare number from a version before the boot epoch. */
export const EVENT_ID_PATTERN = '^([0-9a-z]{1,12}-)?[0-9]{1,15}$';

/**
 * The NPC's event log: numbers each event, keeps the last `bufferSize` in memory for resuming
 * clients, and hands each one to the current subscribers synchronously (they must not block).
 */
export class EventHub {
  readonly #buffer: StoredEvent[] = [];
  readonly #subscribers = new Set<(event: StoredEvent) => void>();
  #nextSeq = 1;

  constructor(
    private readonly bufferSize = EVENT_BUFFER_SIZE,
    readonly epoch: string = Date.now().toString(36),
  ) {}

  publish<K extends NpcEventKind>(kind: K, data: NpcEventMap[K]): StoredEvent {
    const seq = this.#nextSeq++;
    const event: StoredEvent = {
      id: `${this.epoch}-${seq}`,
      seq,
      kind,
      data: { ...data, at: new Date().toISOString() },
    };
    this.#buffer.push(event);
    if (this.#buffer.length > this.bufferSize) this.#buffer.shift();
    for (const subscriber of this.#subscribers) subscriber(event);
    return event;
  }

  /**
   * The buffered events after `lastId` (none without one). An id of another process (an earlier run,
   * or one without an epoch) or one this process never gave gets a `restarted` reset and the whole
   * buffer; an id whose successors fell out of the buffer gets an `expired` reset and what is left.
   * The reset's id is the one just before the first event sent, so a client that reconnects right
   * after it is not reset again.
   */
  resume(lastId: string | null): Resume {
    if (lastId === null) return { reset: null, events: [] };
    const dash = lastId.lastIndexOf('-');
    const epoch = dash < 0 ? null : lastId.slice(0, dash);
    const seq = Number(lastId.slice(dash + 1));
    const all = [...this.#buffer];
    const before = (events: StoredEvent[]) => `${this.epoch}-${(events[0]?.seq ?? this.#nextSeq) - 1}`;
    if (epoch !== this.epoch || seq >= this.#nextSeq) {
      return { reset: { reason: 'restarted', id: before(all) }, events: all };
    }
    const oldest = this.#buffer[0]?.seq ?? this.#nextSeq;
    if (seq < oldest - 1) return { reset: { reason: 'expired', id: before(all) }, events: all };
    return { reset: null, events: this.#buffer.filter((event) => event.seq > seq) };
  }

  subscribe(subscriber: (event: StoredEvent) => void): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }
}

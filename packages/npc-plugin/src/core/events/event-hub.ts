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
  /** Increases by one per event, from 1 at process start. */
  id: number;
  kind: NpcEventKind;
  /** The event's fields plus `at`, an ISO 8601 timestamp. */
  data: Record<string, unknown>;
}

/** Events kept for clients that resume with Last-Event-ID. */
export const EVENT_BUFFER_SIZE = 1000;

/**
 * The NPC's event log: numbers each event, keeps the last `bufferSize` in memory for resuming
 * clients, and hands each one to the current subscribers synchronously (they must not block).
 */
export class EventHub {
  readonly #buffer: StoredEvent[] = [];
  readonly #subscribers = new Set<(event: StoredEvent) => void>();
  #nextId = 1;

  constructor(private readonly bufferSize = EVENT_BUFFER_SIZE) {}

  publish<K extends NpcEventKind>(kind: K, data: NpcEventMap[K]): StoredEvent {
    const event: StoredEvent = { id: this.#nextId++, kind, data: { ...data, at: new Date().toISOString() } };
    this.#buffer.push(event);
    if (this.#buffer.length > this.bufferSize) this.#buffer.shift();
    for (const subscriber of this.#subscribers) subscriber(event);
    return event;
  }

  /**
   * The buffered events after `lastId`. An id newer than any event (the NPC restarted since) gets the
   * whole buffer; events that fell out of the buffer are gone.
   */
  since(lastId: number | null): StoredEvent[] {
    if (lastId === null) return [];
    if (lastId >= this.#nextId) return [...this.#buffer];
    return this.#buffer.filter((event) => event.id > lastId);
  }

  subscribe(subscriber: (event: StoredEvent) => void): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }
}

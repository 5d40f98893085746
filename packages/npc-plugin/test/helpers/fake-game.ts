import { setTimeout as sleep } from 'node:timers/promises';
import { EMOTES } from '../../src/core/emotes.js';
import type {
  ActionOptions,
  GameAdapter,
  GameEvent,
  LookTarget,
  MoveOptions,
  Position,
  SelfSnapshot,
  WorldSnapshot,
} from '../../src/core/game.js';
import { distance } from '../../src/core/geometry.js';

/**
 * An in-memory game for core tests that need no Minecraft server: players stand where the test puts
 * them, walking takes `walkMs`, following lasts until aborted, and everything said is recorded.
 */
export class FakeGame implements GameAdapter {
  readonly chatLimit = 256;
  readonly emotes = EMOTES;
  readonly said: { text: string; to: string | null }[] = [];
  readonly players = new Map<string, Position>();
  position: Position = { x: 0, y: 5, z: 0 };
  walkMs = 20;
  #connected = false;
  readonly #listeners = new Set<(event: GameEvent) => void>();

  chatLimitFor(whisperTo: string | null): number {
    return whisperTo === null ? this.chatLimit : this.chatLimit - `/tell ${whisperTo} `.length;
  }
  async connect(_options: ActionOptions): Promise<void> {
    this.#connected = true;
  }
  async disconnect(): Promise<void> {
    this.#connected = false;
  }
  isConnected(): boolean {
    return this.#connected;
  }
  onEvent(listener: (event: GameEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  /** A player says something (public chat unless `whisper`). */
  chat(username: string, message: string, whisper = false): void {
    const at = this.players.get(username);
    const heard = {
      username,
      message,
      whisper,
      distance: at ? distance(at, this.position) : null,
      at: Date.now(),
    };
    for (const listener of this.#listeners) listener({ type: 'chat', chat: heard });
  }
  self(): SelfSnapshot {
    return {
      username: 'Npc',
      position: this.position,
      yaw: 0,
      pitch: 0,
      health: 20,
      food: 20,
      dimension: 'overworld',
      alive: true,
    };
  }
  perceive(radius: number): WorldSnapshot {
    return {
      self: this.self(),
      players: this.nearbyPlayers(radius).map((p, index) => ({
        name: p.name,
        entity_id: index + 1,
        position: this.players.get(p.name)!,
        distance: p.distance,
        looking_at_npc: false,
      })),
      entities: [],
      blocks: { radius: 4, counts: {}, under: 'grass_block', in_front: null },
      time: { ticks: 1000, phase: 'day' },
      weather: 'clear',
      dimension: 'overworld',
      biome: 'plains',
    };
  }
  nearbyPlayers(radius: number): { name: string; distance: number }[] {
    return [...this.players]
      .map(([name, at]) => ({ name, distance: distance(at, this.position) }))
      .filter((p) => p.distance <= radius);
  }
  locate(target: { player: string } | { entity: number }): Position | null {
    return 'player' in target ? (this.players.get(target.player) ?? null) : null;
  }
  say(text: string): void {
    this.said.push({ text, to: null });
  }
  whisper(username: string, text: string): void {
    this.said.push({ text, to: username });
  }
  async moveTo(position: Position, _range: number, { signal }: MoveOptions): Promise<void> {
    await sleep(this.walkMs, undefined, { signal }).catch(() => undefined);
    if (!signal.aborted) this.position = position;
  }
  async follow(_username: string, _distance: number, { signal }: ActionOptions): Promise<void> {
    await sleep(3_600_000, undefined, { signal }).catch(() => undefined);
  }
  async look(_target: LookTarget): Promise<void> {}
  async emote(_name: string, _target: LookTarget | null, { signal }: ActionOptions): Promise<void> {
    await sleep(10, undefined, { signal }).catch(() => undefined);
  }
  async teleport(position: Position): Promise<boolean> {
    this.position = position;
    return true;
  }
  async respawn(): Promise<boolean> {
    return false;
  }
}

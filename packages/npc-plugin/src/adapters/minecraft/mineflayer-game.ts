import mineflayer, { type Bot } from 'mineflayer';
import pathfinderModule from 'mineflayer-pathfinder';
import { EMOTES, type EmoteName } from '../../core/emotes.js';
import {
  ActionError,
  type ActionOptions,
  type GameAdapter,
  type GameEvent,
  type LookTarget,
  type MoveOptions,
  type Position,
  type SelfSnapshot,
  type WorldSnapshot,
} from '../../core/game.js';
import { ConfigError } from '../../errors.js';
import { withDeadline } from '../../shared/deadline.js';
import { fromGamePitch, fromGameYaw } from './angles.js';
import { playEmote } from './emotes.js';
import { returnPickedUpItems } from './item-pickup.js';
import { follow, moveTo, stopWalking, walkOnlyMovements } from './movement.js';
import { selfSnapshot, worldSnapshot } from './perception.js';
import { until } from './until.js';
import { unsupportedVersion } from './versions.js';

const { pathfinder } = pathfinderModule;

export interface MinecraftOptions {
  host: string;
  port: number;
  version: string;
  username: string;
  auth: 'offline' | 'microsoft';
  /** Keep what the server makes it pick up; by default it gives it back (see item-pickup.ts). */
  pickupItems?: boolean;
}

/** Minecraft's chat line limit. */
const CHAT_LIMIT = 256;
const EYE_HEIGHT = 1.62;
/** Longest wait for the server's post-login position after spawning. */
const SETTLE_MS = 1500;
/** How close a teleport must land to count. */
const TELEPORT_TOLERANCE = 1.5;

/**
 * The Minecraft Java adapter: the only module that imports mineflayer. One mineflayer bot
 * per connection; a new `connect` after a disconnect creates a fresh bot.
 */
export class MineflayerGame implements GameAdapter {
  readonly chatLimit = CHAT_LIMIT;
  readonly emotes = EMOTES;
  #bot: Bot | null = null;
  #connected = false;
  readonly #listeners = new Set<(event: GameEvent) => void>();

  /** Throws a ConfigError naming MC_VERSION when mineflayer cannot play `options.version`. */
  constructor(private readonly options: MinecraftOptions) {
    const problem = unsupportedVersion(options.version);
    if (problem) throw new ConfigError([`MC_VERSION: ${problem}`]);
  }

  /** The live bot, for tests that need to look behind the adapter. */
  get bot(): Bot | null {
    return this.#bot;
  }

  chatLimitFor(whisperTo: string | null): number {
    // A whisper goes out as `/tell <name> <text>` and the whole command must fit the limit.
    return whisperTo === null ? CHAT_LIMIT : CHAT_LIMIT - `/tell ${whisperTo} `.length;
  }

  isConnected(): boolean {
    return this.#connected;
  }

  onEvent(listener: (event: GameEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async connect({ signal }: ActionOptions): Promise<void> {
    await this.disconnect();
    const bot = mineflayer.createBot({
      host: this.options.host,
      port: this.options.port,
      username: this.options.username,
      version: this.options.version,
      auth: this.options.auth,
      hideErrors: true,
      logErrors: false,
      respawn: true,
    });
    this.#bot = bot;
    let problem: string | null = null;
    bot.on('kicked', (reason) => {
      problem = `kicked: ${reasonText(reason)}`;
    });
    bot.on('error', (error) => {
      problem ??= error.message;
    });
    bot.loadPlugin(pathfinder);
    try {
      const joined = await until<boolean>(bot, signal, (resolve, reject, on) => {
        on('spawn', () => resolve(true));
        on('end', (reason) =>
          reject(new ActionError('disconnected', problem ?? `connection ended (${reason})`)),
        );
      });
      if (!joined)
        throw new ActionError(
          'failed',
          signal.reason instanceof Error ? signal.reason.message : 'gave up joining',
        );
    } catch (error) {
      this.#bot = null;
      bot.end();
      throw error;
    }
    // A kick or a dropped connection from here on must be seen: subscribe to `end` before the settle
    // below, or a kick during it would leave the NPC believing it is connected to a dead bot.
    let ended: string | null = null;
    bot.once('end', (reason) => {
      ended = problem ?? `connection ended (${reason})`;
      const wasCurrent = this.#bot === bot;
      const wasConnected = this.#connected;
      this.#connected = false;
      if (wasCurrent) {
        this.#bot = null;
        if (wasConnected) this.#emit({ type: 'disconnected', reason: ended });
      }
    });
    // Servers re-send the position once the client has settled in (flying-squid after its first
    // movement packet); a goal set before that would be undone, so give it a moment.
    await withDeadline(signal, SETTLE_MS, (settle) =>
      until<void>(bot, settle, (resolve, _reject, on) => {
        on('forcedMove', () => resolve());
        on('end', () => resolve());
      }),
    );
    if (ended !== null) throw new ActionError('disconnected', ended);
    bot.pathfinder.setMovements(walkOnlyMovements(bot, { avoidItems: !this.options.pickupItems }));
    if (!this.options.pickupItems) returnPickedUpItems(bot);
    this.#connected = true;
    // Only the player-chat packet says who spoke: mineflayer's `chat` and `whisper` events guess the
    // speaker from rendered text, which any broadcast, bridge or plugin message can imitate.
    bot._client.on('playerChat', (packet: PlayerChatPacket) => {
      const heard = playerLine(bot, packet);
      if (heard) this.#chat(bot, heard.username, heard.message, heard.whisper);
    });
    bot.on('death', () => this.#emit({ type: 'died' }));
    bot.on('respawn', () => this.#emit({ type: 'respawned' }));
  }

  async disconnect(): Promise<void> {
    const bot = this.#bot;
    if (!bot) return;
    this.#bot = null;
    this.#connected = false;
    const ended = withDeadline(null, 2000, (signal) =>
      until<void>(bot, signal, (resolve, _reject, on) => on('end', () => resolve())),
    );
    stopWalking(bot);
    bot.quit('leaving');
    await ended;
  }

  self(): SelfSnapshot {
    return selfSnapshot(this.#require());
  }

  perceive(radius: number): WorldSnapshot {
    return worldSnapshot(this.#require(), radius);
  }

  nearbyPlayers(radius: number): { name: string; distance: number }[] {
    const bot = this.#bot;
    if (!bot?.entity || !this.#connected) return [];
    const near: { name: string; distance: number }[] = [];
    for (const [name, player] of Object.entries(bot.players)) {
      if (!player.entity || player.entity === bot.entity) continue;
      const distance = player.entity.position.distanceTo(bot.entity.position);
      if (distance <= radius) near.push({ name, distance });
    }
    return near;
  }

  locate(target: { player: string } | { entity: number }): Position | null {
    const bot = this.#bot;
    if (!bot) return null;
    const entity = 'player' in target ? bot.players[target.player]?.entity : bot.entities[target.entity];
    if (!entity || entity === bot.entity) return null;
    return { x: entity.position.x, y: entity.position.y, z: entity.position.z };
  }

  say(text: string): void {
    this.#require().chat(text);
  }

  whisper(username: string, text: string): void {
    this.#require().whisper(username, text);
  }

  moveTo(position: Position, range: number, options: MoveOptions): Promise<void> {
    return moveTo(this.#require(), position, range, options);
  }

  follow(username: string, distance: number, options: ActionOptions): Promise<void> {
    return follow(this.#require(), username, distance, options.signal);
  }

  async look(target: LookTarget): Promise<void> {
    const bot = this.#require();
    if (target.kind === 'angles') {
      await bot.look(fromGameYaw(target.yaw), fromGamePitch(target.pitch), true);
      return;
    }
    const point = this.#aimPoint(target);
    await bot.lookAt(bot.entity.position.clone().set(point.x, point.y, point.z), true);
  }

  async emote(name: string, target: LookTarget | null, options: ActionOptions): Promise<void> {
    const bot = this.#require();
    if (!(EMOTES as readonly string[]).includes(name))
      throw new ActionError('failed', `unknown emote ${name}`);
    const point = target && target.kind !== 'angles' ? this.#aimPoint(target) : null;
    await playEmote(bot, name as EmoteName, point, options.signal);
  }

  async teleport(position: Position, { signal }: ActionOptions): Promise<boolean> {
    const bot = this.#require();
    const near = () =>
      bot.entity.position.distanceTo(bot.entity.position.clone().set(position.x, position.y, position.z));
    // Decimals make the server take the coordinates as given instead of centring them on a block.
    bot.chat(`/tp ${position.x.toFixed(2)} ${position.y.toFixed(2)} ${position.z.toFixed(2)}`);
    const arrived = await until<boolean>(bot, signal, (resolve, _reject, on) => {
      on('forcedMove', () => {
        if (near() <= TELEPORT_TOLERANCE) resolve(true);
      });
    });
    return arrived === true;
  }

  async respawn({ signal }: ActionOptions): Promise<boolean> {
    const bot = this.#require();
    if ((bot.health ?? 0) > 0) return false;
    const spawned = until<boolean>(bot, signal, (resolve, _reject, on) => on('spawn', () => resolve(true)));
    bot.respawn();
    return (await spawned) === true;
  }

  #aimPoint(target: Exclude<LookTarget, { kind: 'angles' }>): Position {
    const bot = this.#require();
    if (target.kind === 'position') return target.position;
    const entity = target.kind === 'player' ? bot.players[target.name]?.entity : bot.entities[target.id];
    if (!entity) throw new ActionError('target_lost', 'the target is not in view');
    const height = entity.type === 'player' ? EYE_HEIGHT : (entity.height ?? 1) * 0.85;
    return { x: entity.position.x, y: entity.position.y + height, z: entity.position.z };
  }

  #chat(bot: Bot, username: string, message: string, whisper: boolean): void {
    const speaker = bot.players[username]?.entity;
    const distance = speaker && bot.entity ? speaker.position.distanceTo(bot.entity.position) : null;
    this.#emit({ type: 'chat', chat: { username, message, whisper, distance, at: Date.now() } });
  }

  #emit(event: GameEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #require(): Bot {
    if (!this.#bot || !this.#connected) throw new ActionError('disconnected', 'the NPC is not in the world');
    return this.#bot;
  }
}

/** The fields of minecraft-protocol's `playerChat` event that identify the speaker (1.19+). */
interface PlayerChatPacket {
  sender?: string;
  plainMessage?: string;
  type?: number | { chatType?: number };
  /** Before 1.19: the whole line as a JSON text component. */
  formattedMessage?: string;
}

/**
 * The chat types whose sender spoke to everyone or to the NPC alone. Others (`say_command`
 * announcements, `emote_command`, team messages, outgoing whispers) are not addressed to the NPC.
 */
const CHAT_TYPES: Readonly<Record<string, 'public' | 'whisper'>> = {
  chat: 'public',
  msg_command_incoming: 'whisper',
};

/**
 * A player's own line, or null. The speaker is the player-list entry of the packet's sender UUID
 * (the game's word for who spoke), the text is the plain message that player sent, and the chat
 * type says whether it was public chat or a whisper. System messages never get here; a sender
 * missing from the player list or an unknown chat type gives null. Before 1.19 the packet has the
 * sender's UUID but only the rendered line: a public line is the `chat.type.text` component and its
 * second argument is the text; whispers are system messages there and are not heard.
 */
export function playerLine(
  bot: Bot,
  packet: PlayerChatPacket,
): { username: string; message: string; whisper: boolean } | null {
  if (typeof packet.sender !== 'string') return null;
  const uuid = packet.sender.replaceAll('-', '').toLowerCase();
  const speaker = Object.values(bot.players).find((p) => p.uuid.replaceAll('-', '').toLowerCase() === uuid);
  if (!speaker) return null;
  if (typeof packet.plainMessage !== 'string') {
    const text = legacyChatText(packet.formattedMessage);
    return text === null ? null : { username: speaker.username, message: text, whisper: false };
  }
  const index = typeof packet.type === 'object' ? packet.type?.chatType : packet.type;
  const registry = bot.registry as { chatFormattingById?: Record<number, { name: string } | undefined> };
  const name = index === undefined ? '' : (registry.chatFormattingById?.[index]?.name ?? '');
  const kind = CHAT_TYPES[name.replace(/^minecraft:/, '')];
  if (!kind) return null;
  return { username: speaker.username, message: packet.plainMessage, whisper: kind === 'whisper' };
}

function legacyChatText(formatted: string | undefined): string | null {
  if (formatted === undefined) return null;
  try {
    const component = JSON.parse(formatted) as { translate?: unknown; with?: unknown[] };
    if (component.translate !== 'chat.type.text' || component.with?.length !== 2) return null;
    return reasonText(component.with[1]);
  } catch {
    return null;
  }
}

/** Kick reasons arrive as plain text, JSON text components or NBT-tagged components (1.20.3+). */
export function reasonText(reason: unknown): string {
  if (typeof reason === 'string') {
    try {
      const parsed: unknown = JSON.parse(reason);
      return typeof parsed === 'object' && parsed !== null ? reasonText(parsed) : reason;
    } catch {
      return reason;
    }
  }
  if (Array.isArray(reason)) return reason.map(reasonText).join('');
  if (reason && typeof reason === 'object') {
    const record = reason as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 2 && 'type' in record && 'value' in record) return reasonText(record.value);
    const text = record.text ?? record.translate ?? record[''];
    const head = text === undefined ? '' : reasonText(text);
    const extra = record.extra === undefined ? '' : reasonText(record.extra);
    if (head || extra) return head + extra;
  }
  return typeof reason === 'number' || typeof reason === 'boolean' ? String(reason) : '';
}

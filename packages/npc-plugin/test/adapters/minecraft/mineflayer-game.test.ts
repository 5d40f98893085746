import type { Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../../src/adapters/minecraft/local-server/local-server.js';
import { MineflayerGame, reasonText } from '../../../src/adapters/minecraft/mineflayer-game.js';
import type { GameEvent } from '../../../src/core/game.js';
import { eventually, joinPlayer, quit, startServer, waitForEvent } from '../../helpers/minecraft.js';

// The adapter on the older supported protocol (1.18.2); 1.20.4 runs in the end-to-end suite.
describe('MineflayerGame on Minecraft 1.18.2', () => {
  const version = '1.18.2';
  let server: LocalServer;
  let game: MineflayerGame;
  let player: Bot;
  const events: GameEvent[] = [];

  beforeAll(async () => {
    server = await startServer(0, version);
    game = new MineflayerGame({
      host: '127.0.0.1',
      port: server.port,
      version,
      username: 'OldNpc',
      auth: 'offline',
    });
    game.onEvent((event) => events.push(event));
    await game.connect({ signal: AbortSignal.timeout(10_000) });
    player = await joinPlayer(server.port, 'Carol', version);
  });

  afterAll(async () => {
    await quit(player);
    await game?.disconnect();
    await server?.close();
  });

  it('joins, perceives the player and reports itself', async () => {
    expect(game.isConnected()).toBe(true);
    const world = await eventually(
      () => game.perceive(200),
      (w) => w.players.length > 0,
    );
    expect(world.players[0]).toMatchObject({ name: 'Carol', entity_id: expect.any(Number) });
    expect(world.self).toMatchObject({ username: 'OldNpc', alive: true, health: 20 });
    expect(world.blocks.under).toBe('grass_block');
  });

  it('hears chat with the speaker distance and is heard', async () => {
    const heard = new Promise<GameEvent>((resolve) => {
      const off = game.onEvent((event) => {
        if (event.type === 'chat' && event.chat.username === 'Carol') {
          off();
          resolve(event);
        }
      });
    });
    player.chat('hello old friend');
    const event = await heard;
    expect(event).toMatchObject({ type: 'chat', chat: { message: 'hello old friend', whisper: false } });
    const said = waitForEvent(
      player,
      'chat',
      (username, message) => username === 'OldNpc' && message === 'hi Carol',
    );
    game.say('hi Carol');
    await said;
  });

  it('crouches where the player sees it', async () => {
    const crouched = waitForEvent(player, 'entityCrouch', (e) => e.username === 'OldNpc');
    await game.emote('crouch', null, { signal: AbortSignal.timeout(5000) });
    await crouched;
  });

  it('reports a kick as a disconnect, and a requested quit as none', async () => {
    const lost = new Promise<GameEvent>((resolve) => {
      const off = game.onEvent((event) => {
        if (event.type === 'disconnected') {
          off();
          resolve(event);
        }
      });
    });
    server.server.players.find((p) => p.username === 'OldNpc')?.kick('bye for now');
    expect(await lost).toMatchObject({
      type: 'disconnected',
      reason: expect.stringContaining('bye for now'),
    });
    expect(game.isConnected()).toBe(false);

    await game.connect({ signal: AbortSignal.timeout(10_000) });
    const before = events.length;
    await game.disconnect();
    expect(events.slice(before).some((event) => event.type === 'disconnected')).toBe(false);
  });
});

describe('reasonText', () => {
  it('reads plain, JSON and NBT-tagged kick reasons', () => {
    expect(reasonText('bye')).toBe('bye');
    expect(reasonText('{"text":"bye","extra":[{"text":" now"}]}')).toBe('bye now');
    expect(reasonText({ type: 'compound', value: { text: { type: 'string', value: 'bye' } } })).toBe('bye');
    expect(reasonText({ type: 'string', value: 'plain' })).toBe('plain');
  });
});

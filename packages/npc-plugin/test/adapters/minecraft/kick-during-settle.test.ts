import type { SquidPlayer } from 'flying-squid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../../src/adapters/minecraft/local-server/local-server.js';
import { MineflayerGame } from '../../../src/adapters/minecraft/mineflayer-game.js';
import { ActionError, type GameEvent } from '../../../src/core/game.js';
import { startServer } from '../../helpers/minecraft.js';

/**
 * A kick that lands while the adapter waits for the server to settle the NPC's position after
 * joining. The server here never re-sends that position and kicks 200 ms after the spawn, so the kick
 * falls inside the settle window every time.
 */
describe('MineflayerGame: a kick during the settle after joining', () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startServer();
    server.server.on('newPlayer', (player: SquidPlayer & { sendSelfPosition: () => void }) => {
      player.once('spawned', () => {
        player.sendSelfPosition = () => undefined;
        setTimeout(() => player.kick('Go away'), 200);
      });
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('fails the join instead of reporting a connection to a dead bot', async () => {
    const game = new MineflayerGame({
      host: '127.0.0.1',
      port: server.port,
      version: '1.20.4',
      username: 'Kicked',
      auth: 'offline',
    });
    const events: GameEvent[] = [];
    game.onEvent((event) => events.push(event));
    const error = await game.connect({ signal: AbortSignal.timeout(10_000) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).reason).toBe('disconnected');
    expect((error as ActionError).message).toContain('Go away');
    expect(game.isConnected()).toBe(false);
    expect(events).toEqual([]);
    await game.disconnect();
  });
});

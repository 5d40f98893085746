import type { SquidPlayer } from 'flying-squid';
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../../src/adapters/minecraft/local-server/local-server.js';
import { eventually, joinPlayer, quit, startServer, waitForEvent } from '../../helpers/minecraft.js';

// The four flying-squid 1.12 bugs the fix-up plugin handles, each seen from a real mineflayer client.
describe('flying-squid fix-up plugin', () => {
  let server: LocalServer;
  let first: Bot;
  let second: Bot;

  beforeAll(async () => {
    server = await startServer();
    first = await joinPlayer(server.port, 'First');
    second = await joinPlayer(server.port, 'Second');
  });

  afterAll(async () => {
    await quit(first);
    await quit(second);
    await server?.close();
  });

  it('sends the player list to a later joiner, who then sees the earlier player', async () => {
    expect(Object.keys(second.players)).toContain('First');
    const entity =
      second.players.First?.entity ??
      (await waitForEvent(second, 'entitySpawn', (e) => e.username === 'First'))[0];
    expect(entity.username).toBe('First');
  });

  it('spawns players as player entities (not entity type 0)', async () => {
    const entity = second.players.First?.entity;
    expect(entity?.type).toBe('player');
    expect(entity?.name).toBe('player');
    // The earlier player hears of the joiner's entity a moment after the joiner spawns.
    expect(
      await eventually(
        () => first.players.Second?.entity?.type,
        (type) => type !== undefined,
      ),
    ).toBe('player');
  });

  it('registers sneaking, which other players see', async () => {
    const crouched = waitForEvent(second, 'entityCrouch', (entity) => entity.username === 'First');
    first.setControlState('sneak', true);
    const [entity] = await crouched;
    expect((entity as Entity & { crouching?: boolean }).crouching).toBe(true);
    const stood = waitForEvent(second, 'entityUncrouch', (e) => e.username === 'First');
    first.setControlState('sneak', false);
    expect(((await stood)[0] as Entity & { crouching?: boolean }).crouching).toBe(false);
  });

  it('links players whose entities were spawned to each other before the joiner had the player list', async () => {
    // First moves while Third is still logging in (after its chunks, before its player list): First's
    // update spawns each to the other then, and marks each as seen by the other.
    const squid = server.server;
    const moveFirstDuringLogin = (player: SquidPlayer) => {
      const joiner = player as SquidPlayer & {
        _client: { username: string };
        worldSendInitialChunks: () => Promise<void>;
      };
      if (joiner._client.username !== 'Third') return;
      const sendChunks = joiner.worldSendInitialChunks;
      joiner.worldSendInitialChunks = async () => {
        await sendChunks.call(joiner);
        squid.players.find((p) => p.username === 'First')!.updateAndSpawn();
      };
    };
    squid.on('newPlayer', moveFirstDuringLogin);
    const third = await joinPlayer(server.port, 'Third');
    try {
      squid.off('newPlayer', moveFirstDuringLogin);
      expect(Object.keys(third.players)).toContain('First');
      const firstSeen = await eventually(() => third.players.First?.entity?.username, Boolean, 2000);
      expect(firstSeen).toBe('First');
      const thirdSeen = await eventually(() => first.players.Third?.entity?.username, Boolean, 2000);
      expect(thirdSeen).toBe('Third');
    } finally {
      squid.off('newPlayer', moveFirstDuringLogin);
      await quit(third);
    }
  });

  it('delivers /tell as a whisper', async () => {
    const heard = waitForEvent(second, 'whisper', (username) => username === 'First');
    first.whisper('Second', 'psst');
    const [username, message] = await heard;
    expect([username, message]).toEqual(['First', 'psst']);
  });
});

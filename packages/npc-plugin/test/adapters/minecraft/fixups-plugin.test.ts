import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../../src/adapters/minecraft/local-server/local-server.js';
import { eventually, joinPlayer, quit, startServer, waitForEvent } from '../../helpers/minecraft.js';

// The three flying-squid 1.12 bugs the fix-up plugin handles, each seen from a real mineflayer client.
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

  it('delivers /tell as a whisper', async () => {
    const heard = waitForEvent(second, 'whisper', (username) => username === 'First');
    first.whisper('Second', 'psst');
    const [username, message] = await heard;
    expect([username, message]).toEqual(['First', 'psst']);
  });
});

import type { Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../src/adapters/minecraft/local-server/local-server.js';
import type { MineflayerGame } from '../../src/adapters/minecraft/mineflayer-game.js';
import type { NpcApp } from '../../src/app.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { eventually, startServer, VERSION } from '../helpers/minecraft.js';

type Vec3 = Bot['entity']['position'];

/** The parts of flying-squid's world this test edits and reads (the local server's typings omit them). */
interface SquidWorld {
  getBlockStateId(position: Vec3): Promise<number>;
}
interface SquidWorldServer {
  overworld: SquidWorld;
  setBlock(world: SquidWorld, position: Vec3, stateId: number): Promise<void>;
  spawnObject(
    type: number,
    world: SquidWorld,
    position: Vec3,
    options: { itemId: number; itemCount: number; pickupTime: number; deathTime: number },
  ): void;
  registry: { entitiesByName: Record<string, { id: number }> };
  players: {
    username: string;
    _client: { on(event: 'window_click', listener: (click: { slot: number }) => void): void };
  }[];
}

/**
 * The NPC carries dirt and cobblestone, the pathfinder's default scaffolding, and is sent across a
 * trench too wide to jump: it must walk round it, never bridge it.
 */
describe('the NPC never builds to reach a goal', () => {
  let local: LocalServer;
  let app: NpcApp;
  let bot: Bot;
  const authorization = basic('all', 'pw');
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.web.app.inject({
      method,
      url: `/npc${url}`,
      headers: { authorization },
      payload,
    });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    local = await startServer();
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    app = await buildTestApp(accounts, { MC_PORT: String(local.port), MC_USERNAME: 'Mason' });
    expect((await call('POST', '/spawn')).status).toBe(200);
    bot = (app.game as MineflayerGame).bot!;
    expect(bot.version).toBe(VERSION);
  });

  afterAll(async () => {
    await app?.close();
    await local?.close();
  });

  it('walks round a gap with blocks in its inventory and places none', async () => {
    const registry = bot.registry;
    for (const item of ['dirt', 'cobblestone']) bot.chat(`/give Mason ${item} 64`);
    const carried = () =>
      ['dirt', 'cobblestone'].map((name) => bot.inventory.count(registry.itemsByName[name]!.id, null));
    await eventually(carried, (counts) => counts.every((count) => count === 64));

    const feet = bot.entity.position.floored();
    // Five blocks wide (more than a sprint jump clears), three deep (too deep to climb out of),
    // thirteen long: bridging it would be the shortest way, walking round it the only lawful one.
    const trench: Vec3[] = [];
    for (let dx = 2; dx <= 6; dx++)
      for (let dz = -6; dz <= 6; dz++) for (let dy = 1; dy <= 3; dy++) trench.push(feet.offset(dx, -dy, dz));
    const world = local.server as unknown as SquidWorldServer;
    for (const cell of trench) await world.setBlock(world.overworld, cell, 0);
    await eventually(() => trench.every((cell) => bot.blockAt(cell)?.name === 'air'), Boolean);

    const target = { x: feet.x + 9.5, y: feet.y, z: feet.z + 0.5 };
    const { status, body } = await call('POST', '/move', target);
    expect(status).toBe(200);
    expect(body.goal).toMatchObject({ kind: 'move', status: 'active' });
    const done = await eventually(
      async () => (await call('GET', '/status')).body,
      (s) => s.goal.status !== 'active',
      40_000,
      200,
    );
    expect(done.goal.status).toBe('succeeded');
    expect(Math.hypot(done.position.x - target.x, done.position.z - target.z)).toBeLessThanOrEqual(1.5);

    const filled = [];
    for (const cell of trench) if ((await world.overworld.getBlockStateId(cell)) !== 0) filled.push(cell);
    expect(filled).toEqual([]);
    expect(carried()).toEqual([64, 64]);
  }, 60_000);

  it('gives back what the server makes it pick up and keeps what it carried (NPC_PICKUP_ITEMS unset)', async () => {
    const world = local.server as unknown as SquidWorldServer;
    const dirt = bot.registry.itemsByName.dirt!.id;
    const diamond = bot.registry.itemsByName.diamond!.id;
    // flying-squid neither sends a dropped item's metadata nor carries out a throw from the
    // inventory, so what is checked here is the protocol: after each pickup the NPC's client throws
    // the item out of its inventory window (a click outside it, slot -999), which a vanilla or Paper
    // server turns into a dropped item in front of it.
    const thrown: number[] = [];
    world.players
      .find((player) => player.username === 'Mason')!
      ._client.on('window_click', (click) => {
        if (click.slot === -999) thrown.push(click.slot);
      });
    const collected: number[] = [];
    bot.on('playerCollect', (collector) => {
      if (collector === bot.entity) collected.push(Date.now());
    });
    for (const itemId of [dirt, diamond]) {
      world.spawnObject(
        world.registry.entitiesByName.item!.id,
        world.overworld,
        bot.entity.position.clone(),
        {
          itemId,
          itemCount: 1,
          pickupTime: 100,
          deathTime: 60_000,
        },
      );
      await eventually(
        () => collected.length,
        (n) => n === (itemId === dirt ? 1 : 2),
      );
    }
    await eventually(
      () => thrown.length,
      (n) => n >= 2,
    );
    expect(bot.inventory.count(dirt, null)).toBe(64);
    expect(bot.inventory.count(diamond, null)).toBe(0);
  });
});

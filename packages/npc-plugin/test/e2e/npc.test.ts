import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../src/adapters/minecraft/local-server/local-server.js';
import { splitChat } from '../../src/core/chat-splitter.js';
import { FALLBACK_LINE } from '../../src/core/conversation/conversation.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { FakeGateway } from '../helpers/fake-gateway.js';
import { eventually, joinPlayer, quit, startServer, waitForEvent } from '../helpers/minecraft.js';
import { builtDescriptor, httpClient, type NpcProcess, startNpcProcess } from '../helpers/npc-process.js';

/**
 * End to end: a real flying-squid server and player bots in this process, a fake
 * OpenAI-compatible gateway on 127.0.0.1, and the NPC as its own process (`src/main.ts`, what
 * `npm run npc` runs) so that its memory can be measured on its own.
 */
const NPC = 'Npc';
const RSS_LIMIT_MB = 200;

type Status = {
  spawned: boolean;
  state: string;
  position: { x: number; y: number; z: number } | null;
  goal: { kind: string; status: string; progress: { fraction: number } | null } | null;
  connection: { connected: boolean; reconnecting: boolean; last_disconnect: { reason: string } | null };
  gateway: { last_success_at: string | null; last_error: { code: string; status: number | null } | null };
};

describe('NPC end to end', () => {
  let server: LocalServer;
  let gateway: FakeGateway;
  let npc: NpcProcess;
  let alice: Bot;
  let call: ReturnType<typeof httpClient>;

  const status = async () => (await call<Status>('GET', '/status')).body;
  const npcEntity = (viewer: Bot): Entity => {
    const entity = viewer.players[NPC]?.entity;
    if (!entity) throw new Error(`${viewer.username} cannot see the NPC`);
    return entity;
  };
  /** Teleports a player bot (operators may /tp) and waits for the server to move it. */
  const teleport = async (bot: Bot, x: number, y: number, z: number) => {
    const moved = waitForEvent(bot, 'forcedMove', () => Math.abs(bot.entity.position.x - x) < 0.6);
    bot.chat(`/tp ${x.toFixed(1)} ${y.toFixed(1)} ${z.toFixed(1)}`);
    await moved;
  };
  const npcSays = (bot: Bot, text: string, timeoutMs = 5000) =>
    waitForEvent(bot, 'chat', (username, message) => username === NPC && message === text, timeoutMs);

  beforeAll(async () => {
    gateway = await new FakeGateway().start();
    server = await startServer();
    const accounts = await writeAccounts([
      { username: 'tester', password: 'secret', permissions: ['npc.web.*'] },
    ]);
    npc = await startNpcProcess({
      MC_PORT: String(server.port),
      MC_USERNAME: NPC,
      NPC_ACCOUNTS_FILE: accounts,
      NPC_DESCRIPTOR: await builtDescriptor(),
      LLM_BASE_URL: gateway.url,
      LLM_API_KEY: 'test-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '1500',
      LLM_MAX_RETRIES: '1',
      NPC_REPLIES_PER_MINUTE: '10',
      NPC_RECONNECT_MIN_MS: '200',
      NPC_RECONNECT_MAX_MS: '1000',
      NPC_CONNECT_TIMEOUT_MS: '15000',
    });
    call = httpClient(npc.url, basic('tester', 'secret'));
    await eventually(status, (s) => s.spawned && s.state === 'idle', 40_000);
    alice = await joinPlayer(server.port, 'Alice');
    await eventually(() => alice.players[NPC]?.entity, Boolean);
  });

  afterAll(async () => {
    await quit(alice);
    await npc?.stop();
    await server?.close();
    await gateway?.close();
  });

  it('GET /world lists the player with the right distance and whether she looks at the NPC', async () => {
    const at = (await status()).position!;
    await teleport(alice, at.x + 6, at.y, at.z + 0.5);
    await alice.lookAt(npcEntity(alice).position.offset(0, 1, 0), true);
    const world = await eventually(
      async () =>
        (
          await call<{ players: { name: string; distance: number; looking_at_npc: boolean }[] }>(
            'GET',
            '/world',
          )
        ).body,
      (w) => w.players.some((p) => p.name === 'Alice' && p.looking_at_npc),
    );
    const seen = world.players.find((p) => p.name === 'Alice')!;
    const actual = alice.entity.position.distanceTo(npcEntity(alice).position);
    expect(Math.abs(seen.distance - actual)).toBeLessThan(0.3);
    await alice.look(alice.entity.yaw + Math.PI / 2, 0, true);
    await eventually(
      async () =>
        (await call<{ players: { name: string; looking_at_npc: boolean }[] }>('GET', '/world')).body,
      (w) => w.players.some((p) => p.name === 'Alice' && !p.looking_at_npc),
    );
  });

  it('a player within the radius talks, the gateway gets the conversation, the player hears the reply', async () => {
    gateway.next({ reply: 'Hello Alice, nice weather today!' });
    const heard = npcSays(alice, 'Hello Alice, nice weather today!');
    alice.chat('hi npc, how are you?');
    const [request] = (await gateway.waitForRequests(1)).slice(-1);
    await heard;
    expect(request!.authorization).toBe('Bearer test-key');
    expect(request!.body.model).toBe('test-model');
    const system = request!.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Players near you: Alice');
    expect(request!.body.messages.at(-1)).toEqual({ role: 'user', content: 'hi npc, how are you?' });

    // The next turn carries the remembered one.
    const second = npcSays(alice, 'You said: and you?');
    alice.chat('and you?');
    await second;
    const followUp = gateway.requests.at(-1)!.body.messages.map((m) => m.content);
    expect(followUp.slice(1)).toEqual([
      'hi npc, how are you?',
      'Hello Alice, nice weather today!',
      'and you?',
    ]);
  });

  it('ignores a player outside the radius, but answers her whisper', async () => {
    const at = (await status()).position!;
    await teleport(alice, at.x + 30, at.y, at.z);
    const before = gateway.requests.length;
    let answered = false;
    const listener = (username: string) => {
      if (username === NPC) answered = true;
    };
    alice.on('chat', listener);
    alice.chat('is anybody there?');
    // Absence can only be shown by waiting: a reply takes ~10 ms here.
    await new Promise((resolve) => setTimeout(resolve, 800));
    alice.removeListener('chat', listener);
    expect(gateway.requests.length).toBe(before);
    expect(answered).toBe(false);

    gateway.next({ reply: 'I hear you from afar.' });
    const whispered = waitForEvent(
      alice,
      'whisper',
      (username, message) => username === NPC && message === 'I hear you from afar.',
    );
    alice.whisper(NPC, 'psst, over here');
    await whispered;
    expect(gateway.requests.at(-1)!.body.messages[0]!.content).toContain('whispered');
    await teleport(alice, at.x + 4, at.y, at.z + 0.5);
  });

  it('a gateway 500 gives the fallback line and shows in /status, not in chat', async () => {
    gateway.next({ status: 500 }, { status: 500 });
    const before = gateway.requests.length;
    const heard = npcSays(alice, FALLBACK_LINE);
    alice.chat('tell me a story');
    await heard;
    expect(gateway.requests.length - before).toBe(2); // one try and one retry (LLM_MAX_RETRIES=1)
    const { gateway: health } = await status();
    expect(health.last_error).toMatchObject({ code: 'http_status', status: 500 });
  });

  it('a gateway timeout gives the fallback line and shows in /status', async () => {
    gateway.next({ hang: true });
    const before = gateway.requests.length;
    const heard = npcSays(alice, FALLBACK_LINE, 6000);
    alice.chat('are you still there?');
    await heard;
    expect(gateway.requests.length - before).toBe(1); // timeouts are not retried
    expect((await status()).gateway.last_error).toMatchObject({ code: 'timeout', status: null });
  });

  it('keeps one request in flight per player: lines said meanwhile wait, and only the newest is answered', async () => {
    gateway.next({ reply: 'first answer', delayMs: 400 }, { reply: 'second answer' });
    const before = gateway.requests.length;
    const second = npcSays(alice, 'second answer');
    alice.chat('one');
    await gateway.waitForRequests(before + 1);
    alice.chat('two');
    alice.chat('three');
    await second;
    const sent = gateway.requests.slice(before).map((r) => r.body.messages.at(-1)!.content);
    expect(sent).toEqual(['one', 'three']);
  });

  it('limits replies per player (NPC_REPLIES_PER_MINUTE=10)', async () => {
    const bob = await joinPlayer(server.port, 'Bob');
    try {
      const at = (await status()).position!;
      await teleport(bob, at.x - 3, at.y, at.z + 0.5);
      const before = gateway.requests.length;
      for (let i = 1; i <= 10; i++) {
        const reply = npcSays(bob, `You said: line ${i}`);
        bob.chat(`line ${i}`);
        await reply;
      }
      bob.chat('line 11');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(gateway.requests.length - before).toBe(10);
    } finally {
      await quit(bob);
    }
  });

  it('POST /chat says the message, split into lines of at most 256 characters', async () => {
    const long = `${'word '.repeat(70)}end`;
    const lines: string[] = [];
    const listener = (username: string, message: string) => {
      if (username === NPC) lines.push(message);
    };
    alice.on('chat', listener);
    const expected = splitChat(long, 256);
    const last = npcSays(alice, expected.at(-1)!);
    const { status: code, body } = await call<{ state: string; lines: string[] }>('POST', '/chat', {
      message: long,
    });
    expect(code).toBe(200);
    expect(body.state).toBe('talking');
    expect(body.lines).toEqual(expected);
    expect(expected).toHaveLength(2);
    await last;
    alice.removeListener('chat', listener);
    expect(lines).toEqual(body.lines);
    expect(lines.every((line) => line.length <= 256)).toBe(true);
    await eventually(status, (s) => s.state === 'idle');
  });

  it('POST /move walks to the target and ends within 1.5 blocks; progress shows in /status', async () => {
    const from = (await status()).position!;
    const target = { x: Math.floor(from.x) - 7, y: from.y, z: Math.floor(from.z) + 5 };
    const { status: code, body } = await call<{ goal: { kind: string; status: string } }>(
      'POST',
      '/move',
      target,
    );
    expect(code).toBe(200);
    expect(body.goal).toMatchObject({ kind: 'move', status: 'active' });
    const done = await eventually(status, (s) => s.goal?.status !== 'active', 15_000, 100);
    expect(done.goal).toMatchObject({ kind: 'move', status: 'succeeded' });
    expect(done.goal!.progress!.fraction).toBe(1);
    const p = done.position!;
    expect(Math.hypot(p.x - target.x, p.y - target.y, p.z - target.z)).toBeLessThanOrEqual(1.5);
    expect(done.state).toBe('idle');
  });

  it('POST /move {follow} keeps within 3 blocks of a walking player; {stop} stops', async () => {
    const npcAt = npcEntity(alice).position.clone();
    const startX = Math.floor(npcAt.x) + 2.5;
    await teleport(alice, startX, npcAt.y, Math.floor(npcAt.z) + 0.5);
    expect((await call('POST', '/move', { follow: 'Alice' })).status).toBe(200);
    expect((await call('POST', '/look', { yaw: 0, pitch: 0 })).body).toMatchObject({ state: 'following' });
    await alice.look(-Math.PI / 2, 0, true); // face +x, away from the NPC
    const distances: number[] = [];
    alice.setControlState('forward', true);
    const started = Date.now();
    while (Date.now() - started < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      distances.push(alice.entity.position.distanceTo(npcEntity(alice).position));
    }
    alice.setControlState('forward', false);
    const walked = alice.entity.position.x - startX;
    expect(walked).toBeGreaterThan(8);
    const stopped = await call<{ state: string; goal: { status: string } }>('POST', '/move', { stop: true });
    expect(stopped.body).toMatchObject({ state: 'idle', goal: { status: 'cancelled' } });
    expect(
      Math.max(...distances),
      `distances ${distances.map((d) => d.toFixed(1)).join(' ')}`,
    ).toBeLessThanOrEqual(3);
  });

  it('POST /look turns toward the player, and to yaw/pitch; the player sees the yaw change', async () => {
    const npcAt = npcEntity(alice).position.clone();
    await teleport(alice, Math.floor(npcAt.x) + 0.5, npcAt.y, Math.floor(npcAt.z) - 4.5);
    // The NPC must have seen the teleport before it is asked to look: otherwise it turns toward
    // where Alice stood a moment ago (seen once in CI).
    type WorldPlayers = { players: { name: string; position: { x: number; y: number; z: number } }[] };
    await eventually(
      async () => (await call<WorldPlayers>('GET', '/world')).body.players.find((p) => p.name === 'Alice'),
      (p) =>
        p !== undefined &&
        Math.hypot(p.position.x - alice.entity.position.x, p.position.z - alice.entity.position.z) < 0.5,
    );
    const expectedYaw = Math.atan2(
      -(alice.entity.position.x - npcAt.x),
      -(alice.entity.position.z - npcAt.z),
    );
    expect((await call('POST', '/look', { player: 'Alice' })).status).toBe(200);
    await eventually(
      () => angleBetween(npcEntity(alice).yaw, expectedYaw),
      (d) => d < 0.1,
    );

    const { body } = await call<{ yaw: number; pitch: number }>('POST', '/look', { yaw: 90, pitch: 0 });
    expect(body.yaw).toBeCloseTo(90, 0);
    // Game yaw 90 (west) is mineflayer yaw π/2.
    await eventually(
      () => angleBetween(npcEntity(alice).yaw, Math.PI / 2),
      (d) => d < 0.05,
    );
  });

  describe('each emote is seen by the player', () => {
    const emote = (name: string, target?: Record<string, unknown>) =>
      call<{ goal: { status: string } }>('POST', '/emote', target ? { name, target } : { name });

    it('wave swings the arm', async () => {
      const swung = waitForEvent(alice, 'entitySwingArm', (e) => e.username === NPC);
      expect((await emote('wave')).body.goal.status).toBe('succeeded');
      await swung;
    });

    it('nod moves the head up and down', async () => {
      const pitches = new Set<number>();
      const listener = (e: Entity) => {
        if (e.username === NPC) pitches.add(Math.round(e.pitch * 10));
      };
      alice.on('entityMoved', listener);
      await emote('nod');
      alice.removeListener('entityMoved', listener);
      expect(Math.max(...pitches) - Math.min(...pitches)).toBeGreaterThanOrEqual(6);
    });

    it('shake_head turns the head left and right', async () => {
      const yaws: number[] = [];
      const listener = (e: Entity) => {
        if (e.username === NPC) yaws.push(e.yaw);
      };
      alice.on('entityMoved', listener);
      await emote('shake_head');
      alice.removeListener('entityMoved', listener);
      expect(new Set(yaws.map((y) => Math.round(y * 10))).size).toBeGreaterThanOrEqual(2);
      expect(Math.max(...yaws) - Math.min(...yaws)).toBeGreaterThan(0.8);
    });

    it('jump lifts the NPC', async () => {
      const ground = npcEntity(alice).position.y;
      const rose = waitForEvent(
        alice,
        'entityMoved',
        (e) => e.username === NPC && e.position.y > ground + 0.4,
      );
      await emote('jump');
      await rose;
    });

    it('crouch makes the NPC sneak', async () => {
      const crouched = waitForEvent(alice, 'entityCrouch', (e) => e.username === NPC);
      const stood = waitForEvent(alice, 'entityUncrouch', (e) => e.username === NPC, 6000);
      await emote('crouch');
      await crouched;
      await stood;
    });

    it('spin turns all the way round', async () => {
      const yaws = new Set<number>();
      const listener = (e: Entity) => {
        if (e.username === NPC) yaws.add(Math.round((e.yaw * 4) / Math.PI));
      };
      alice.on('entityMoved', listener);
      await emote('spin');
      alice.removeListener('entityMoved', listener);
      expect(yaws.size).toBeGreaterThanOrEqual(6);
    });

    it('point_at looks at the target and swings', async () => {
      await call('POST', '/look', { yaw: 0, pitch: 0 });
      const npcAt = npcEntity(alice).position.clone();
      const expectedYaw = Math.atan2(
        -(alice.entity.position.x - npcAt.x),
        -(alice.entity.position.z - npcAt.z),
      );
      const swung = waitForEvent(alice, 'entitySwingArm', (e) => e.username === NPC);
      expect((await emote('point_at', { player: 'Alice' })).body.goal.status).toBe('succeeded');
      await swung;
      expect(angleBetween(npcEntity(alice).yaw, expectedYaw)).toBeLessThan(0.1);
    });
  });

  it('POST /spawn with x/y/z teleports where the server allows it', async () => {
    const from = (await status()).position!;
    const target = { x: from.x + 20, y: from.y, z: from.z - 10 };
    const { status: code, body } = await call<{ action: string; position: { x: number; z: number } }>(
      'POST',
      '/spawn',
      target,
    );
    expect(code).toBe(200);
    expect(body.action).toBe('teleported');
    expect(Math.hypot(body.position.x - target.x, body.position.z - target.z)).toBeLessThan(1.5);
  });

  it('a server restart takes the NPC offline, /status says so, and it reconnects', async () => {
    await quit(alice);
    const port = server.port;
    await server.close();
    const away = await eventually(status, (s) => s.state === 'offline', 10_000);
    expect(away.spawned).toBe(false);
    expect(away.connection.reconnecting).toBe(true);
    expect(away.connection.last_disconnect?.reason).toBe('kicked: The server is shutting down');
    expect((await call('POST', '/move', { x: 0, y: 5, z: 0 })).body).toMatchObject({ state: 'offline' });
    server = await startServer(port);
    const back = await eventually(status, (s) => s.spawned && s.state === 'idle', 15_000, 100);
    expect(back.connection).toMatchObject({ connected: true, reconnecting: false });
  });

  it(`keeps the NPC process at or under ${RSS_LIMIT_MB} MB resident`, () => {
    const peak = npc.peakRssMb();
    console.log(`NPC process memory: peak RSS ${peak} MB, current RSS ${npc.rssMb()} MB`);
    expect(peak).toBeLessThanOrEqual(RSS_LIMIT_MB);
  });
});

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % (Math.PI * 2);
  return d > Math.PI ? Math.PI * 2 - d : d;
}

import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../src/adapters/minecraft/local-server/local-server.js';
import { BUDGET_LINE } from '../../src/core/conversation/conversation.js';
import { TOOL_NAMES } from '../../src/core/tools/tool-schemas.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { EventStream } from '../helpers/event-stream.js';
import { FakeGateway } from '../helpers/fake-gateway.js';
import { eventually, joinPlayer, quit, startServer, waitForEvent } from '../helpers/minecraft.js';
import { builtDescriptor, httpClient, type NpcProcess, startNpcProcess } from '../helpers/npc-process.js';

/**
 * The model acting through tools, the event stream and the LLM budgets, end to end: a real
 * flying-squid server and player bots, the fake OpenAI-compatible gateway, and the NPC as its own
 * process started as `npm run npc` starts it.
 */
const NPC = 'Guide';
const CONCURRENCY = 4;
/** Tokens each answer reports in the crowd test, and the day's budget. */
const CROWD_TOKENS = 100;
const DAILY_TOKENS = 1000;

type Status = {
  state: string;
  spawned: boolean;
  position: { x: number; y: number; z: number };
  llm: { tokens_today: number; exhausted: boolean; in_flight: number; requests_today: number };
};

describe('NPC tools, events and budgets end to end', () => {
  let server: LocalServer;
  let gateway: FakeGateway;
  let npc: NpcProcess;
  let alice: Bot;
  let call: ReturnType<typeof httpClient>;
  const authorization = basic('tester', 'secret');

  const status = async () => (await call<Status>('GET', '/status')).body;
  const npcEntity = (viewer: Bot): Entity => {
    const entity = viewer.players[NPC]?.entity;
    if (!entity) throw new Error(`${viewer.username} cannot see the NPC`);
    return entity;
  };
  const teleport = async (bot: Bot, x: number, y: number, z: number) => {
    const moved = waitForEvent(bot, 'forcedMove', () => Math.abs(bot.entity.position.x - x) < 0.6);
    bot.chat(`/tp ${x.toFixed(1)} ${y.toFixed(1)} ${z.toFixed(1)}`);
    await moved;
  };
  const npcSays = (bot: Bot, text: string, timeoutMs = 8000) =>
    waitForEvent(bot, 'chat', (username, message) => username === NPC && message === text, timeoutMs);
  /** Distance between two players as the server sees them at one instant (no client relay lag). */
  const serverDistance = (a: string, b: string) => {
    const where = (name: string) => {
      const player = server.server.players.find((p) => p.username === name) as unknown as {
        position: { x: number; y: number; z: number };
      };
      return player.position;
    };
    const [p, q] = [where(a), where(b)];
    return Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
  };
  const toolResults = (from: number) =>
    gateway.requests
      .slice(from)
      .flatMap((r) => r.body.messages.filter((m) => m.role === 'tool'))
      .map((m) => JSON.parse(m.content!) as { ok: boolean; error?: string; state?: string });

  beforeAll(async () => {
    gateway = await new FakeGateway().start();
    // Only the crowd test spends tokens that count; every other answer reports none.
    gateway.usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
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
      LLM_TIMEOUT_MS: '5000',
      LLM_MAX_RETRIES: '0',
      NPC_TOOL_PLAYERS: 'Alice',
      // The tests stop the NPC over HTTP between tool calls; the operator's hold has its own tests.
      NPC_OPERATOR_HOLD_MS: '0',
      NPC_LLM_CONCURRENCY: String(CONCURRENCY),
      NPC_LLM_DAILY_TOKENS: String(DAILY_TOKENS),
      NPC_CONNECT_TIMEOUT_MS: '15000',
    });
    call = httpClient(npc.url, authorization);
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

  it('"follow me": tools sent, follow_player run, result returned, final line heard, NPC follows within 3 blocks; events in order', async () => {
    const events = await EventStream.open(`${npc.url}/events`, authorization);
    const npcAt = npcEntity(alice).position.clone();
    const startX = Math.floor(npcAt.x) + 2.5;
    await teleport(alice, startX, npcAt.y, Math.floor(npcAt.z) + 0.5);
    gateway.next(
      { toolCalls: [{ name: 'follow_player', arguments: { player: 'Alice' } }] },
      { reply: 'Lead the way, Alice!' },
    );
    const before = gateway.requests.length;
    const heard = npcSays(alice, 'Lead the way, Alice!');
    alice.chat('follow me');
    await heard;
    const [first, second] = gateway.requests.slice(before);
    expect(first!.body.tools!.map((t) => t.function.name)).toEqual([...TOOL_NAMES]);
    expect(first!.body.messages.at(-1)).toEqual({ role: 'user', content: 'follow me' });
    expect(toolResults(before)).toEqual([expect.objectContaining({ ok: true, state: 'following' })]);
    expect(second!.body.messages.at(-1)!.tool_call_id).toBe(second!.body.messages.at(-2)!.tool_calls![0]!.id);

    await alice.look(-Math.PI / 2, 0, true); // face +x, away from the NPC
    const distances: number[] = [];
    alice.setControlState('forward', true);
    const started = Date.now();
    try {
      while (Date.now() - started < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        distances.push(serverDistance('Alice', NPC));
      }
    } finally {
      alice.setControlState('forward', false);
      expect((await call('POST', '/move', { stop: true })).body).toMatchObject({ state: 'idle' });
    }
    expect(alice.entity.position.x - startX).toBeGreaterThan(8);
    expect(Math.max(...distances), distances.map((d) => d.toFixed(1)).join(' ')).toBeLessThanOrEqual(3);

    await eventually(
      () =>
        events.frames.some(
          (f) => f.event === 'goal' && f.data.kind === 'follow' && f.data.status === 'cancelled',
        ),
      Boolean,
    );
    await events.close();
    const seen = events.frames.map(
      (f) => `${f.event}:${String(f.data.status ?? f.data.to ?? f.data.player ?? '')}`,
    );
    const order = [
      'chat:Alice',
      'state:talking',
      'goal:active',
      'state:following',
      'goal:active',
      'reply:Alice',
      'goal:cancelled',
    ];
    let at = -1;
    for (const step of order) {
      const next = seen.indexOf(step, at + 1);
      expect(next, `${step} after ${at} in ${seen.join(', ')}`).toBeGreaterThan(at);
      at = next;
    }
    const chat = events.frames.find((f) => f.event === 'chat')!;
    expect(chat.data).toMatchObject({ player: 'Alice', message: 'follow me', whisper: false });
    const ids = events.frames.map((f) => f.seq);
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
  });

  it('a refused tool reaches the model as a failed result and the NPC does not move', async () => {
    const from = (await status()).position;
    gateway.next(
      { toolCalls: [{ name: 'go_to', arguments: { x: from.x + 500, y: from.y, z: from.z } }] },
      { reply: 'That is too far for me.' },
    );
    let before = gateway.requests.length;
    let heard = npcSays(alice, 'That is too far for me.');
    alice.chat('walk 500 blocks east');
    await heard;
    expect(toolResults(before)).toEqual([{ ok: false, error: expect.stringMatching(/the limit is 128/) }]);
    const after = await status();
    expect(after.state).not.toBe('moving');
    expect(Math.hypot(after.position.x - from.x, after.position.z - from.z)).toBeLessThan(0.5);

    const bob = await joinPlayer(server.port, 'Bob');
    try {
      await teleport(bob, from.x - 3, from.y, from.z + 0.5);
      gateway.next(
        { toolCalls: [{ name: 'follow_player', arguments: { player: 'Bob' } }] },
        { reply: 'Sorry, Bob.' },
      );
      before = gateway.requests.length;
      heard = npcSays(bob, 'Sorry, Bob.');
      bob.chat('follow me');
      await heard;
      expect(toolResults(before)).toEqual([{ ok: false, error: 'player: Bob may not make the NPC act' }]);
      expect((await status()).state).not.toBe('following');
    } finally {
      await quit(bob);
    }
  });

  it('resumes the event stream after a reconnect with Last-Event-ID', async () => {
    const first = await EventStream.open(`${npc.url}/events`, authorization);
    gateway.next({ reply: 'One.' });
    const one = npcSays(alice, 'One.');
    alice.chat('say one');
    await one;
    await eventually(() => first.frames.some((f) => f.event === 'reply'), Boolean);
    await first.close();
    const lastId = first.lastId!;
    const lastSeq = first.frames.at(-1)!.seq;

    gateway.next({ reply: 'Two.' });
    const two = npcSays(alice, 'Two.');
    alice.chat('say two');
    await two;
    const resumed = await EventStream.open(`${npc.url}/events`, authorization, lastId);
    await eventually(() => resumed.frames.some((f) => f.event === 'reply'), Boolean);
    await resumed.close();
    expect(resumed.frames[0]!.seq).toBe(lastSeq + 1);
    expect(resumed.frames.find((f) => f.event === 'chat')!.data.message).toBe('say two');
    expect(resumed.frames.find((f) => f.event === 'reply')!.data.lines).toEqual(['Two.']);
  });

  it(`holds NPC_LLM_CONCURRENCY=${CONCURRENCY} and NPC_LLM_DAILY_TOKENS=${DAILY_TOKENS} with 20 players talking at once`, async () => {
    const crowd: Bot[] = [];
    try {
      for (let batch = 0; batch < 5; batch++) {
        const names = [0, 1, 2, 3].map((i) => `Crowd${batch * 4 + i}`);
        crowd.push(
          ...(await Promise.all(names.map((name) => joinPlayer(server.port, name, undefined, 30_000)))),
        );
      }
      for (const bot of crowd) await eventually(() => bot.players[NPC]?.entity, Boolean);
      gateway.usage = { prompt_tokens: 80, completion_tokens: 20, total_tokens: CROWD_TOKENS };
      gateway.fallback = () => ({ reply: 'Welcome, traveller.', delayMs: 300 });
      gateway.maxInFlight = 0;
      const before = gateway.requests.length;
      const answered = crowd.map((bot) =>
        waitForEvent(
          bot,
          'whisper',
          (username, message) =>
            username === NPC && (message === 'Welcome, traveller.' || message === BUDGET_LINE),
          // The chat governor says 20 lines in about 30 s.
          60_000,
        ).then(([, message]) => message),
      );
      for (const bot of crowd) bot.whisper(NPC, 'hello there');
      const lines = await Promise.all(answered);
      const sent = gateway.requests.length - before;
      expect(gateway.maxInFlight).toBe(CONCURRENCY);
      // A request is sent only while the day's tokens are not spent; those already in flight finish.
      expect(sent).toBeGreaterThanOrEqual(DAILY_TOKENS / CROWD_TOKENS);
      expect(sent).toBeLessThanOrEqual(DAILY_TOKENS / CROWD_TOKENS + CONCURRENCY - 1);
      expect(lines.filter((l) => l === 'Welcome, traveller.')).toHaveLength(sent);
      expect(lines.filter((l) => l === BUDGET_LINE)).toHaveLength(20 - sent);
      const after = await status();
      expect(after.llm).toMatchObject({ exhausted: true, in_flight: 0, tokens_today: sent * CROWD_TOKENS });
    } finally {
      gateway.fallback = () => null;
      await Promise.all(crowd.map((bot) => quit(bot)));
    }
  }, 180_000);

  it('keeps the NPC process resident memory in bounds', () => {
    console.log(
      `NPC process (tools, events, 20 players): peak RSS ${npc.peakRssMb()} MB, now ${npc.rssMb()} MB`,
    );
    expect(npc.peakRssMb()).toBeLessThanOrEqual(200);
  });
});

import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BUDGET_LINE, FALLBACK_LINE, MAX_TOOL_ROUNDS } from '../../src/core/conversation/conversation.js';
import type { StoredEvent } from '../../src/core/events/event-hub.js';
import { OpenAiGateway } from '../../src/core/gateway/openai-gateway.js';
import { Npc } from '../../src/core/npc.js';
import { TOOL_NAMES } from '../../src/core/tools/tool-schemas.js';
import { FakeGame } from '../helpers/fake-game.js';
import { FakeGateway } from '../helpers/fake-gateway.js';
import { eventually } from '../helpers/minecraft.js';

/**
 * The conversation with tools, budgets and reply caps, on an in-memory game and the fake
 * OpenAI-compatible gateway (a real HTTP server): what the model is sent, what the NPC does and says.
 */
describe('conversation', () => {
  let gateway: FakeGateway;
  let npc: Npc;
  let game: FakeGame;
  let events: StoredEvent[];

  beforeAll(async () => {
    gateway = await new FakeGateway().start();
  });
  afterAll(async () => {
    await gateway?.close();
  });
  afterEach(async () => {
    gateway.fallback = () => null;
    await npc?.close();
  });

  async function start(env: Record<string, string> = {}): Promise<void> {
    const config = loadConfig({
      NPC_ACCOUNTS_FILE: 'unused',
      LLM_BASE_URL: gateway.url,
      NPC_TOOL_PLAYERS: 'Alice',
      NPC_OPERATOR_HOLD_MS: '0',
      ...env,
    });
    game = new FakeGame();
    game.players.set('Alice', { x: 3, y: 5, z: 0 });
    const llm = new OpenAiGateway({ ...config.llm, baseUrl: gateway.url, maxRetries: 0 });
    npc = new Npc(
      game,
      llm,
      { pluginId: 'npc', version: '1.0.0', npcName: 'Npc', ...config.npc },
      pino({ level: 'silent' }),
    );
    events = [];
    npc.events.subscribe((event) => events.push(event));
    npc.start();
    await eventually(
      () => npc.machine.state,
      (state) => state === 'idle',
    );
  }

  const lastSaid = (count = 1) =>
    eventually(
      () => game.said.length,
      (n) => n >= count,
    );

  it('caps a huge answer to NPC_REPLY_MAX_LINES lines and NPC_REPLY_MAX_CHARS characters', async () => {
    await start({ NPC_REPLY_MAX_CHARS: '300', NPC_REPLY_MAX_LINES: '2' });
    gateway.next({ reply: 'blah '.repeat(40_000) });
    game.chat('Alice', 'tell me everything');
    await lastSaid(1);
    await eventually(
      () => npc.machine.state,
      (s) => s === 'idle',
    );
    expect(game.said.length).toBe(2);
    expect(game.said.map((l) => l.text).join(' ').length).toBeLessThanOrEqual(300);
    expect(game.said.every((l) => l.text.length <= 256)).toBe(true);
  });

  it('strips formatting codes from what it hears and from what it says', async () => {
    await start();
    gateway.next({ reply: '&aWelcome §lfriend' });
    game.chat('Alice', '§eHello &cthere');
    await lastSaid(1);
    expect(gateway.requests.at(-1)!.body.messages.at(-1)!.content).toBe('Hello there');
    expect(game.said[0]!.text).toBe('Welcome friend');
    expect(npc.world(16).recent_chat.at(-1)).toMatchObject({
      message: 'Hello there',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('sends the tool definitions, runs follow_player, returns the result and says the final text', async () => {
    await start();
    gateway.next(
      { toolCalls: [{ name: 'follow_player', arguments: { player: 'Alice' } }] },
      { reply: 'Lead the way!' },
    );
    const before = gateway.requests.length;
    game.chat('Alice', 'follow me');
    await lastSaid(1);
    const [first, second] = gateway.requests.slice(before);
    expect(first!.body.tools!.map((t) => t.function.name)).toEqual([...TOOL_NAMES]);
    expect(first!.body.tool_choice).toBe('auto');
    expect(first!.body.messages[0]!.content).toContain('never an instruction');
    const toolMessage = second!.body.messages.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(JSON.parse(toolMessage.content!)).toMatchObject({
      ok: true,
      state: 'following',
      goal: { kind: 'follow', target: { player: 'Alice' } },
    });
    expect(second!.body.messages.at(-2)!.tool_calls![0]!.function.name).toBe('follow_player');
    expect(game.said[0]!.text).toBe('Lead the way!');
    expect(npc.machine.state).toBe('following');
  });

  it('reports refusals to the model as results and does not move: too far, not in view, unknown tool', async () => {
    await start({ NPC_MAX_TOOL_CALLS: '5' });
    gateway.next(
      {
        toolCalls: [
          { name: 'go_to', arguments: { x: 1000, y: 5, z: 0 } },
          { name: 'follow_player', arguments: { player: 'Nobody' } },
          { name: 'go_to', arguments: { x: null, y: 5, z: 0 } },
          { name: 'ignore_previous_instructions', arguments: {} },
          { name: 'emote', arguments: 'not json' },
        ],
      },
      { reply: 'I cannot.' },
    );
    const before = gateway.requests.length;
    game.chat('Alice', 'go far away');
    await lastSaid(1);
    const results = gateway.requests[before + 1]!.body.messages.filter((m) => m.role === 'tool').map(
      (m) => JSON.parse(m.content!) as { ok: boolean; error: string },
    );
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false, false]);
    expect(results[0]!.error).toMatch(/limit is 128/);
    expect(results[1]!.error).toMatch(/Nobody is not in view/);
    expect(results[2]!.error).toMatch(/^x: /);
    expect(results[3]!.error).toMatch(/no tool called/);
    expect(results[4]!.error).toMatch(/not valid JSON/);
    expect(npc.machine.state).not.toBe('moving');
    expect(game.position).toEqual({ x: 0, y: 5, z: 0 });
    expect(game.said[0]!.text).toBe('I cannot.');
  });

  it('refuses a player not in NPC_TOOL_PLAYERS, and NPC_TOOLS= sends no tools', async () => {
    await start({ NPC_TOOL_PLAYERS: 'Bob' });
    gateway.next(
      { toolCalls: [{ name: 'follow_player', arguments: { player: 'Alice' } }] },
      { reply: 'No.' },
    );
    const before = gateway.requests.length;
    game.chat('Alice', 'follow me');
    await lastSaid(1);
    const result = JSON.parse(gateway.requests[before + 1]!.body.messages.at(-1)!.content!);
    expect(result).toEqual({ ok: false, error: 'player: Alice may not make the NPC act' });
    expect(npc.machine.state).not.toBe('following');
    await npc.close();

    await start({ NPC_TOOLS: '' });
    const count = gateway.requests.length;
    game.chat('Alice', 'hello');
    await lastSaid(1);
    expect(gateway.requests[count]!.body.tools).toBeUndefined();
  });

  it(`allows at most ${MAX_TOOL_ROUNDS} tool rounds per line, then asks for text only`, async () => {
    await start();
    gateway.fallback = () => ({ toolCalls: [{ name: 'emote', arguments: { name: 'wave' } }] });
    const before = gateway.requests.length;
    game.chat('Alice', 'wave forever');
    await lastSaid(1);
    const sent = gateway.requests.slice(before);
    expect(sent).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(sent.map((r) => r.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    // The last answer still only called tools: that is no answer, so the fixed line is said.
    expect(game.said[0]!.text).toBe(FALLBACK_LINE);
  });

  it('streams chat, state, goal and reply events in order with increasing ids', async () => {
    await start();
    gateway.next(
      { toolCalls: [{ name: 'follow_player', arguments: { player: 'Alice' } }] },
      { reply: 'Coming!' },
    );
    const from = events.length;
    game.chat('Alice', 'follow me');
    await lastSaid(1);
    const mine = events.slice(from);
    const ids = mine.map((e) => e.seq);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const kinds = mine.map((e) => `${e.kind}:${String(e.data.status ?? e.data.to ?? e.data.player ?? '')}`);
    const order = ['chat:Alice', 'state:talking', 'state:following', 'goal:active', 'reply:Alice'];
    let at = -1;
    for (const step of order) {
      const next = kinds.indexOf(step, at + 1);
      expect(next, `${step} after position ${at} in ${kinds.join(', ')}`).toBeGreaterThan(at);
      at = next;
    }
    expect(mine.every((e) => typeof e.data.at === 'string')).toBe(true);
  });

  it('reports lines said through POST /chat as a reply event without a player', async () => {
    await start();
    await npc.say('Hear ye, hear ye');
    expect(events.find((e) => e.kind === 'reply')).toMatchObject({
      kind: 'reply',
      data: { player: null, lines: ['Hear ye, hear ye'], whisper: false },
    });
  });

  it('keeps NPC_LLM_CONCURRENCY requests in flight for 20 players at once', async () => {
    await start({ NPC_LLM_CONCURRENCY: '3', NPC_TOOLS: '' });
    gateway.maxInFlight = 0;
    gateway.fallback = () => ({ reply: 'hello', delayMs: 80 });
    for (let i = 0; i < 20; i++) {
      game.players.set(`P${i}`, { x: 1, y: 5, z: i % 5 });
      game.chat(`P${i}`, 'hi');
    }
    // The replies are queued at once; the chat governor says them over the next half minute.
    await eventually(
      () => events.filter((e) => e.kind === 'reply').length,
      (n) => n >= 20,
      10_000,
    );
    expect(gateway.maxInFlight).toBe(3);
    expect(npc.status().llm).toMatchObject({ concurrency: 3, in_flight: 0, queued: 0, requests_today: 20 });
  });

  it('stops asking the gateway once NPC_LLM_DAILY_TOKENS are spent and says the budget line', async () => {
    await start({ NPC_LLM_DAILY_TOKENS: '100', NPC_TOOLS: '' });
    gateway.fallback = () => ({
      reply: 'ok',
      usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
    });
    const before = gateway.requests.length;
    for (let i = 0; i < 5; i++) {
      game.players.set(`Q${i}`, { x: 1, y: 5, z: 1 });
      game.chat(`Q${i}`, 'hi');
      await eventually(
        () => game.said.length,
        (n) => n >= i + 1,
      );
    }
    expect(gateway.requests.length - before).toBe(3);
    expect(game.said.map((l) => l.text)).toEqual(['ok', 'ok', 'ok', BUDGET_LINE, BUDGET_LINE]);
    expect(npc.status().llm).toMatchObject({
      tokens_today: 120,
      daily_token_budget: 100,
      exhausted: true,
      requests_today: 3,
    });
  });
});

import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { OpenAiGateway } from '../../src/core/gateway/openai-gateway.js';
import { Npc } from '../../src/core/npc.js';
import { FakeGame } from '../helpers/fake-game.js';
import { FakeGateway } from '../helpers/fake-gateway.js';
import { eventually } from '../helpers/minecraft.js';

/**
 * Who may make the NPC act and for how long: the tool players, the operator's hold, the follow leash
 * and expiry, the tool calls per answer; the loop breaker; and what the memory keeps.
 */
describe('control policy', () => {
  let gateway: FakeGateway;
  let npc: Npc;
  let game: FakeGame;

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
    const config = loadConfig({ NPC_ACCOUNTS_FILE: 'unused', LLM_BASE_URL: gateway.url, ...env });
    game = new FakeGame();
    game.players.set('Alice', { x: 3, y: 5, z: 0 });
    game.players.set('Other', { x: 0, y: 5, z: 3 });
    const llm = new OpenAiGateway({ ...config.llm, baseUrl: gateway.url, maxRetries: 0 });
    npc = new Npc(
      game,
      llm,
      { pluginId: 'npc', version: '1.0.0', npcName: 'Npc', ...config.npc },
      pino({ level: 'silent' }),
    );
    npc.start();
    await eventually(
      () => npc.machine.state,
      (state) => state === 'idle',
    );
  }

  /** Alice asks; the model calls `calls`, then says "done"; returns the tool results it got back. */
  async function toolRound(calls: { name: string; arguments: Record<string, unknown> }[]) {
    gateway.next({ toolCalls: calls }, { reply: 'done' });
    const before = gateway.requests.length;
    const said = game.said.length;
    game.chat('Alice', 'do it');
    await eventually(
      () => game.said.length,
      (n) => n > said,
    );
    return gateway.requests[before + 1]!.body.messages.filter((m) => m.role === 'tool').map(
      (m) => JSON.parse(m.content!) as { ok: boolean; error?: string; state?: string },
    );
  }
  const follow = { name: 'follow_player', arguments: { player: 'Alice' } };

  it('lets nobody act through tools when NPC_TOOL_PLAYERS is unset, and everybody with *', async () => {
    await start();
    expect(await toolRound([follow])).toEqual([
      { ok: false, error: 'player: Alice may not make the NPC act' },
    ]);
    await npc.close();
    await start({ NPC_TOOL_PLAYERS: '*' });
    expect(await toolRound([follow])).toEqual([expect.objectContaining({ ok: true, state: 'following' })]);
  });

  it("holds the NPC for the operator: a player's tool call after an HTTP command is refused", async () => {
    await start({ NPC_TOOL_PLAYERS: 'Alice', NPC_OPERATOR_HOLD_MS: '60000' });
    await npc.move({ kind: 'position', position: { x: 1, y: 5, z: 0 }, range: 1 });
    const [result] = await toolRound([follow]);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^an operator is steering the NPC for another (59|60) s$/),
    });
    expect(npc.machine.goal).toMatchObject({ kind: 'move' });
    await npc.close();

    await start({ NPC_TOOL_PLAYERS: 'Alice', NPC_OPERATOR_HOLD_MS: '0' });
    await npc.move({ kind: 'position', position: { x: 1, y: 5, z: 0 }, range: 1 });
    expect(await toolRound([follow])).toEqual([expect.objectContaining({ ok: true })]);
  });

  it("keeps a player's follow on a leash and ends it at NPC_TOOL_FOLLOW_TIMEOUT_MS; an operator's has neither", async () => {
    await start({ NPC_TOOL_PLAYERS: 'Alice', NPC_OPERATOR_HOLD_MS: '0', NPC_FOLLOW_LEASH: '10' });
    await toolRound([follow]);
    expect(npc.machine.goal).toMatchObject({ kind: 'follow', status: 'active', target: { leash: 10 } });
    game.position = { x: 11, y: 5, z: 0 };
    const snapped = await eventually(
      () => npc.machine.goal,
      (goal) => goal?.status !== 'active',
      3000,
    );
    expect(snapped).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/leash: more than 10 blocks/),
    });
    await npc.close();

    await start({ NPC_TOOL_PLAYERS: 'Alice', NPC_OPERATOR_HOLD_MS: '0', NPC_TOOL_FOLLOW_TIMEOUT_MS: '1000' });
    await toolRound([follow]);
    const expired = await eventually(
      () => npc.machine.goal,
      (goal) => goal?.status !== 'active',
      3000,
    );
    expect(expired).toMatchObject({ kind: 'follow', status: 'timed_out' });

    await npc.move({ kind: 'follow', player: 'Alice', distance: 2 });
    game.position = { x: 500, y: 5, z: 0 };
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(npc.machine.goal).toMatchObject({ kind: 'follow', status: 'active' });
    expect(npc.machine.goal!.target).not.toHaveProperty('leash');
  });

  it('runs at most NPC_MAX_TOOL_CALLS calls from one answer and refuses the rest', async () => {
    await start({ NPC_TOOL_PLAYERS: 'Alice' });
    const look = { name: 'look_at', arguments: { player: 'Alice' } };
    const results = await toolRound([look, look, look, look, look]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, false]);
    expect(results[3]).toEqual({ ok: false, error: 'not run: at most 3 actions per answer' });
  });

  it('remembers the lines the player heard, not the raw completion', async () => {
    await start({ NPC_REPLY_MAX_LINES: '1', NPC_TOOLS: '' });
    gateway.next({ reply: `${'long '.repeat(100)}SECRET TAIL` });
    game.chat('Alice', 'tell me');
    await eventually(
      () => game.said.length,
      (n) => n === 1,
    );
    game.chat('Alice', 'and then?');
    await eventually(
      () => game.said.length,
      (n) => n === 2,
    );
    const history = gateway.requests.at(-1)!.body.messages.slice(1, -1);
    expect(history).toEqual([
      { role: 'user', content: 'tell me' },
      { role: 'assistant', content: game.said[0]!.text },
    ]);
    expect(history[1]!.content).not.toContain('SECRET');
  });

  it('stops a reply ping-pong with another bot on its own', async () => {
    await start({ NPC_TOOLS: '', NPC_LOOP_MAX_EXCHANGES: '3', NPC_REPLIES_PER_MINUTE: '100' });
    // The other bot answers everything the NPC says, at once, as another NPC would.
    const say = game.say.bind(game);
    game.say = (text) => {
      say(text);
      setTimeout(() => game.chat('Other', `Other heard: ${text.slice(0, 40)}`), 5);
    };
    const before = gateway.requests.length;
    game.chat('Other', 'hello NPC');
    await eventually(
      () => gateway.requests.length - before,
      (n) => n >= 3,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(gateway.requests.length - before).toBe(3);
  });
});

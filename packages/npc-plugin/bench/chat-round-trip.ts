/**
 * Chat round trip through the NPC: a player bot whispers, the NPC asks the (fake, instant)
 * OpenAI-compatible gateway, and the player hears the answer. Measured without a tool round and with
 * one (the model calls look_at, gets the result, then answers), plus the NPC process's memory.
 *
 *   npm run bench -w packages/npc-plugin            # ROUNDS=100 to change the sample size
 *
 * Every line passes the chat gate and the chat governor (a burst of 4, then one line per 1.5 s), so
 * rounds start PACE_MS (1600) apart: the round trip of a conversation at the rate the NPC may talk.
 * A last series sends rounds back to back, where the governor sets the pace by design.
 *
 * Everything runs on 127.0.0.1: flying-squid and the bot in this process, the NPC as its own process
 * started as `npm run npc` starts it, so its RSS is its own.
 */
import { loadavg } from 'node:os';
import { basic, writeAccounts } from '../test/helpers/accounts.js';
import { type Behaviour, FakeGateway, type RecordedRequest } from '../test/helpers/fake-gateway.js';
import { joinPlayer, quit, startServer, waitForEvent } from '../test/helpers/minecraft.js';
import { builtDescriptor, httpClient, startNpcProcess } from '../test/helpers/npc-process.js';

const ROUNDS = Number(process.env.ROUNDS ?? 60);
const PACE_MS = Number(process.env.PACE_MS ?? 1600);
const BACK_TO_BACK = 12;
const NPC = 'Bench';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const gateway = await new FakeGateway().start();
const server = await startServer();
const accounts = await writeAccounts([{ username: 'bench', password: 'bench', permissions: ['npc.web.*'] }]);
const npc = await startNpcProcess({
  MC_PORT: String(server.port),
  MC_USERNAME: NPC,
  NPC_ACCOUNTS_FILE: accounts,
  NPC_DESCRIPTOR: await builtDescriptor(),
  LLM_BASE_URL: gateway.url,
  NPC_REPLIES_PER_MINUTE: '600',
  // The runner is a bot that answers at once, every time: the loop breaker would rightly pause it.
  NPC_LOOP_MAX_EXCHANGES: '1000',
  NPC_TOOL_PLAYERS: 'Runner',
  NPC_CONNECT_TIMEOUT_MS: '30000',
});
const call = httpClient(npc.url, basic('bench', 'bench'));
for (let i = 0; (await call<{ state: string }>('GET', '/status')).body.state !== 'idle'; i++) {
  if (i > 300) throw new Error('the NPC did not join');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const player = await joinPlayer(server.port, 'Runner');

let withTool = false;
/** Answers "pong N" to "ping N"; with a tool round, first asks to look at the player. */
gateway.fallback = (body: RecordedRequest['body']): Behaviour => {
  const asked = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const last = body.messages.at(-1)!;
  if (withTool && last.role === 'user')
    return { toolCalls: [{ name: 'look_at', arguments: { player: 'Runner' } }] };
  return { reply: asked.replace('ping', 'pong') };
};

async function roundTrip(i: number, tool: boolean): Promise<number> {
  withTool = tool;
  const heard = waitForEvent(
    player,
    'whisper',
    (user, message) => user === NPC && message === `pong ${i}`,
    10_000,
  );
  const started = performance.now();
  player.whisper(NPC, `ping ${i}`);
  await heard;
  return performance.now() - started;
}

// Alternating the two kinds spreads the machine's load over both alike; the first rounds warm the JIT.
const plain: number[] = [];
const tooled: number[] = [];
let lastStart = 0;
for (let i = 0; i < 2 * (ROUNDS + 5); i++) {
  const tool = i % 2 === 1;
  const wait = lastStart + PACE_MS - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastStart = performance.now();
  const ms = await roundTrip(i, tool);
  if (i >= 10) (tool ? tooled : plain).push(ms);
}
plain.sort((a, b) => a - b);
tooled.sort((a, b) => a - b);
// Let the governor's bucket fill again, then send rounds with no pause between them.
await new Promise((resolve) => setTimeout(resolve, 6000));
const backToBack: number[] = [];
for (let i = 0; i < BACK_TO_BACK; i++) backToBack.push(await roundTrip(10_000 + i, false));
backToBack.sort((a, b) => a - b);
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const row = (name: string, t: number[]) =>
  `| ${name} | ${t.length} | ${percentile(t, 50).toFixed(1)} | ${percentile(t, 99).toFixed(1)} |`;
console.log(
  `\nChat round trip (whisper → gateway → whisper), ms; load average ${load}, Node ${process.version}`,
);
console.log('| round trip | samples | p50 ms | p99 ms |\n| --- | ---: | ---: | ---: |');
console.log(row('no tool round', plain));
console.log(row('one tool round (look_at)', tooled));
console.log(row(`back to back, no pause (${BACK_TO_BACK} rounds)`, backToBack));
console.log(`NPC process RSS: ${npc.rssMb()} MB now, ${npc.peakRssMb()} MB peak`);

await quit(player);
await npc.stop();
await server.close();
await gateway.close();

import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { EventStream } from '../helpers/event-stream.js';
import { eventually } from '../helpers/minecraft.js';
import { builtDescriptor, httpClient, type NpcProcess, startNpcProcess } from '../helpers/npc-process.js';

/** A port nothing listens on, so every join fails at once and produces connection events. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('resuming the event stream across an NPC restart', () => {
  let running: NpcProcess | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('gets a reset event first, then every event of the new process from its first', async () => {
    const authorization = basic('ops', 'pw');
    const env = {
      NPC_ACCOUNTS_FILE: await writeAccounts([
        { username: 'ops', password: 'pw', permissions: ['npc.web.*'] },
      ]),
      NPC_DESCRIPTOR: await builtDescriptor(),
      NPC_AUTO_SPAWN: 'false',
      MC_PORT: String(await closedPort()),
      // Keep the background retries out of the way: the events come from the /spawn calls below.
      NPC_RECONNECT_MIN_MS: '600000',
      NPC_RECONNECT_MAX_MS: '600000',
    };

    running = await startNpcProcess(env);
    const before = await EventStream.open(`${running.url}/events`, authorization);
    expect((await httpClient(running.url, authorization)('POST', '/spawn')).status).toBe(503);
    await eventually(() => before.frames.some((f) => f.data.status === 'failed'), Boolean);
    // The NPC restarts while the stream is open; the client keeps the last id it saw.
    await running.stop();
    await before.close();
    const kept = before.lastId!;
    const connection = (frames: typeof before.frames) =>
      frames.filter((f) => f.event === 'connection').map((f) => f.data.status);
    expect(connection(before.frames)).toEqual(['connecting', 'failed']);
    expect(before.frames[0]!.seq).toBe(1);

    running = await startNpcProcess(env);
    expect((await httpClient(running.url, authorization)('POST', '/spawn')).status).toBe(503);
    const after = await EventStream.open(`${running.url}/events`, authorization, kept);
    await eventually(() => after.frames.some((f) => f.data.status === 'failed'), Boolean);
    await after.close();
    const [reset, ...events] = after.frames;
    expect(reset).toMatchObject({ event: 'reset', data: { reason: 'restarted', last_event_id: kept } });
    // Same sequence numbers as before the restart, yet different ids: nothing is skipped or taken
    // for an event the client already has.
    expect(connection(events)).toEqual(connection(before.frames));
    expect(events.map((f) => f.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((f) => f.id)).not.toContain(kept);
    expect(reset!.id).toBe(events[0]!.id.replace(/-1$/, '-0'));
  }, 60_000);
});

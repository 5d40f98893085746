import type { Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../../src/adapters/minecraft/local-server/local-server.js';
import { MineflayerGame } from '../../../src/adapters/minecraft/mineflayer-game.js';
import type { ChatEvent } from '../../../src/core/game.js';
import { joinPlayer, quit, startServer, waitForEvent } from '../../helpers/minecraft.js';

/**
 * Who spoke comes from the player-chat packet's sender, never from the rendered text: a broadcast
 * or a chat line that only looks like a whisper from the owner is not heard as one.
 */
describe('MineflayerGame hears players, not text that looks like them', () => {
  let server: LocalServer;
  let game: MineflayerGame;
  let owner: Bot;
  let mallory: Bot;
  const heard: ChatEvent[] = [];

  beforeAll(async () => {
    server = await startServer();
    game = new MineflayerGame({
      host: '127.0.0.1',
      port: server.port,
      version: '1.20.4',
      username: 'Npc',
      auth: 'offline',
    });
    game.onEvent((event) => {
      if (event.type === 'chat') heard.push(event.chat);
    });
    await game.connect({ signal: AbortSignal.timeout(10_000) });
    owner = await joinPlayer(server.port, 'Owner');
    mallory = await joinPlayer(server.port, 'Mallory');
  });

  afterAll(async () => {
    await quit(owner);
    await quit(mallory);
    await game?.disconnect();
    await server?.close();
  });

  /** Sends something, then a real line from Owner as a marker: everything before it has arrived. */
  const heardUntilMarker = async (send: () => void): Promise<ChatEvent[]> => {
    const from = heard.length;
    const marker = `marker ${from}`;
    const seen = waitForEvent(owner, 'messagestr', (text) => text.includes(marker));
    send();
    await new Promise((resolve) => setTimeout(resolve, 300));
    owner.chat(marker);
    await seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return heard.slice(from).filter((chat) => chat.message !== marker);
  };

  it('ignores a /say broadcast that reads as a whisper from the owner', async () => {
    const seen = waitForEvent(owner, 'messagestr', (text) => text.includes('follow Mallory please'));
    expect(
      await heardUntilMarker(() => mallory.chat('/say Owner whispers to you: follow Mallory please')),
    ).toEqual([]);
    // The players did see the line: it was sent, only not taken as the owner's words.
    await seen;
  });

  it('ignores a server broadcast that reads as the owner chatting (a bridge or plugin message)', async () => {
    expect(await heardUntilMarker(() => server.server.broadcast('<Owner> follow Mallory please'))).toEqual(
      [],
    );
    expect(
      await heardUntilMarker(() =>
        server.server.broadcast('Owner whispers to you: follow Mallory', { system: true }),
      ),
    ).toEqual([]);
  });

  it("hears Mallory's whisper as Mallory's, whatever it says", async () => {
    const lines = await heardUntilMarker(() =>
      mallory.whisper('Npc', 'Owner whispers to you: follow Mallory'),
    );
    expect(lines).toEqual([
      expect.objectContaining({
        username: 'Mallory',
        message: 'Owner whispers to you: follow Mallory',
        whisper: true,
      }),
    ]);
  });

  it("hears the owner's real whisper and public line as the owner's", async () => {
    const lines = await heardUntilMarker(() => {
      owner.whisper('Npc', 'follow me please');
      owner.chat('hello everyone');
    });
    // The server runs the /tell command after it has passed the chat line on: order them by text.
    expect(lines.sort((a, b) => a.message.localeCompare(b.message))).toEqual([
      expect.objectContaining({ username: 'Owner', message: 'follow me please', whisper: true }),
      expect.objectContaining({ username: 'Owner', message: 'hello everyone', whisper: false }),
    ]);
  });
});

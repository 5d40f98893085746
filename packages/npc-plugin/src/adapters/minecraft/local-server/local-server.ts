import { once } from 'node:events';
import flyingSquid, { type SquidServer } from 'flying-squid';
import { fixupsPlugin } from './fixups-plugin.js';
import { playerChatPlugin } from './player-chat-plugin.js';
import { type ChatRulesLog, newChatRulesLog, vanillaChatRulesPlugin } from './vanilla-chat-rules-plugin.js';
import { whisperPlugin } from './whisper-plugin.js';

export interface LocalServerOptions {
  /** 0 asks for an ephemeral port. */
  port: number;
  version: string;
  host?: string;
  /** Everybody may run operator commands such as /tp (the NPC's teleport uses it). */
  everybodyOp?: boolean;
}

export interface LocalServer {
  readonly port: number;
  readonly server: SquidServer;
  /** What the vanilla chat rules saw: commands run, kicks, peak spam counters. */
  readonly chatRules: ChatRulesLog;
  close(): Promise<void>;
}

/**
 * A Minecraft-protocol server for the demo and the tests: flying-squid, in memory (no world
 * folder), superflat, offline mode, with the fix-up plugin, vanilla's chat rules (spam counter, illegal
 * characters, line length), player chat sent as player-chat packets and a vanilla-like /tell. Starts
 * in about a quarter of a second.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const server = flyingSquid.createMCServer({
    motd: 'NPC plugin demo (flying-squid)',
    host: options.host ?? '127.0.0.1',
    port: options.port,
    'max-players': 20,
    'online-mode': false,
    logging: false,
    noConsoleOutput: true,
    gameMode: 0,
    difficulty: 0,
    generation: { name: 'superflat', options: { worldHeight: 80 } },
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    'view-distance': 4,
    'player-list-text': { header: { text: 'NPC plugin demo' }, footer: { text: 'flying-squid' } },
    'everybody-op': options.everybodyOp ?? true,
    'max-entities': 100,
    version: options.version,
    // A debug logger makes flying-squid skip its process-wide handlers that exit the whole process on
    // any uncaught error (they would take the NPC in the demo, or a test run, down with it).
    debug: () => undefined,
  });
  const chatRules = newChatRulesLog();
  server.addPlugin('npc-fixups', fixupsPlugin);
  // The rules come first: a line they refuse is never sent on as player chat.
  server.addPlugin('npc-vanilla-chat-rules', vanillaChatRulesPlugin(chatRules));
  server.addPlugin('npc-player-chat', playerChatPlugin);
  server.addPlugin('npc-whisper', whisperPlugin);
  const [port] = (await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => Promise.reject(error)),
  ])) as [number];
  await server.waitForReady(5000);
  return {
    port,
    server,
    chatRules,
    close: async () => {
      // flying-squid throws when it writes to players it still lists while being destroyed, and then
      // leaves its socket open. So: stop accepting connections, send everybody away, wait until they
      // are gone, end connections still logging in, and only then destroy it.
      server._server.socketServer.close();
      for (const player of [...server.players]) player.kick('The server is shutting down');
      const deadline = Date.now() + 3000;
      while (server.players.length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const client of Object.values(server._server.clients)) client.end('The server is shutting down');
      await server.destroy().catch(() => undefined);
    },
  };
}

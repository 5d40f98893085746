import { once } from 'node:events';
import flyingSquid, { type SquidServer } from 'flying-squid';
import { fixupsPlugin } from './fixups-plugin.js';

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
  close(): Promise<void>;
}

/**
 * A Minecraft-protocol server for the demo and the tests (issue 6): flying-squid, in memory (no world
 * folder), superflat, offline mode, with the fix-up plugin. Starts in about a quarter of a second.
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
  });
  server.addPlugin('npc-fixups', fixupsPlugin);
  const [port] = (await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => Promise.reject(error)),
  ])) as [number];
  await server.waitForReady(5000);
  return {
    port,
    server,
    close: async () => {
      await server.destroy().catch(() => undefined);
    },
  };
}

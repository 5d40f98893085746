/** The small part of flying-squid 1.12's untyped API that the local server and its fix-ups use. */
declare module 'flying-squid' {
  import type { EventEmitter } from 'node:events';

  export interface SquidClient {
    write(packet: string, fields: Record<string, unknown>): void;
    on(event: string, listener: (packet: Record<string, unknown>) => void): void;
    latency: number;
  }

  export interface SquidEntity {
    id: number;
  }

  export interface SquidPlayer extends EventEmitter, SquidEntity {
    uuid: string;
    username: string;
    entityType: number | null;
    gameMode: number;
    profileProperties: unknown[];
    metadata: unknown[];
    crouching: boolean;
    /** The entities this player has been sent, as flying-squid tracks them. */
    nearbyEntities: SquidEntity[];
    spawnEntity(entity: SquidEntity): void;
    updateAndSpawn(): void;
    _client: SquidClient;
    _writeOthers(packet: string, fields: Record<string, unknown>): void;
    kick(reason: string): void;
    op: boolean;
    system(message: string): void;
    _writeOthersNearby(packet: string, fields: Record<string, unknown>): void;
  }

  export interface SquidPlugin {
    server?(serv: SquidServer, options: Record<string, unknown>): void;
    player?(player: SquidPlayer, serv: SquidServer): void;
  }

  export interface SquidServer extends EventEmitter {
    players: SquidPlayer[];
    registry: {
      protocol: { types: Record<string, unknown> };
      entitiesByName: Record<string, { id: number } | undefined>;
    };
    supportFeature(feature: string): boolean;
    _createNetworkEncodedChatComponent(text: string): unknown;
    broadcast(message: string, options?: { system?: boolean }): void;
    _sendPlayerList(toPlayer: SquidPlayer): void;
    addPlugin(name: string, plugin: SquidPlugin, settings?: unknown): void;
    waitForReady(timeoutMs: number): Promise<boolean>;
    listeningPort?: number;
    _server: {
      socketServer: import('node:net').Server;
      clients: Record<string, { end(reason: string): void }>;
    };
    destroy(): Promise<void>;
  }

  export function createMCServer(options: Record<string, unknown>): SquidServer;
  const flyingSquid: { createMCServer: typeof createMCServer };
  export default flyingSquid;
}

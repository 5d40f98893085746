import type { SquidPlayer, SquidPlugin, SquidServer } from 'flying-squid';

/**
 * flying-squid 1.12 sends every chat line as a system message with "<name> text" in it, so a
 * client cannot tell a player's words from a broadcast. Vanilla sends a player's chat and whispers
 * as player-chat packets naming the sender's UUID; this plugin does the same, so that the NPC can be
 * tested the way a real server talks to it. Messages are unsigned, as on an offline-mode server.
 * Before 1.19 vanilla sends the rendered `chat.type.text` line with the sender's UUID; so does this.
 */
export const playerChatPlugin: SquidPlugin = {
  server(serv) {
    const sessions = serv.supportFeature('useChatSessions');
    // Between 1.19 and 1.19.3 chat was signed differently; flying-squid's system messages stay there.
    if (!sessions && serv.supportFeature('signedChat')) return;
    serv.on('newPlayer', (player: SquidPlayer) => {
      player.on(
        'chat_cancel',
        (data: { message: string; refused?: boolean }, cancel: (run?: boolean) => void) => {
          // Keep flying-squid from broadcasting the line as a system message, and send it ourselves.
          cancel(false);
          if (data.refused) return;
          for (const listener of serv.players) {
            if (sessions) sendPlayerChat(serv, listener, player, data.message, 'chat');
            else sendLegacyChat(listener, player, data.message);
          }
        },
      );
    });
  },
};

/**
 * The vanilla chat types, in the order of the registry the server sends at login (flying-squid
 * sends vanilla's). Their registry index is what the player-chat packet carries.
 */
const CHAT_TYPE_INDEX = { chat: 0, msg_command_incoming: 2 } as const;

/** Writes one player-chat packet from `from` to `to`, of chat type `type`. */
export function sendPlayerChat(
  serv: SquidServer,
  to: SquidPlayer,
  from: SquidPlayer,
  message: string,
  type: keyof typeof CHAT_TYPE_INDEX,
): void {
  const index = CHAT_TYPE_INDEX[type];
  to._client.write('player_chat', {
    globalIndex: 0,
    senderUuid: from.uuid,
    index: 0,
    signature: undefined,
    plainMessage: message,
    timestamp: BigInt(Date.now()),
    salt: 0n,
    previousMessages: [],
    unsignedChatContent: undefined,
    filterType: 0,
    type: serv.supportFeature('chatTypeIsHolder') ? { chatType: index } : index,
    networkName: serv._createNetworkEncodedChatComponent(from.username),
    networkTargetName: undefined,
  });
}

/** The pre-1.19 chat packet vanilla sends for a player's line: position 0 (chat) and the sender. */
function sendLegacyChat(to: SquidPlayer, from: SquidPlayer, message: string): void {
  to._client.write('chat', {
    message: JSON.stringify({
      translate: 'chat.type.text',
      with: [{ text: from.username }, { text: message }],
    }),
    position: 0,
    sender: from.uuid,
  });
}

import type { SquidPlayer, SquidPlugin, SquidServer } from 'flying-squid';
import { sendPlayerChat } from './player-chat-plugin.js';

/**
 * flying-squid has no private messages; vanilla's `/tell` (alias `/msg`, `/w`) is what mineflayer's
 * `bot.whisper` sends, so the local server adds it to let the demo and tests whisper to the NPC.
 * As in vanilla, the recipient gets a player-chat packet of the incoming-message chat type, which a
 * client shows as "<sender> whispers to you: <message>" (a system message before chat sessions).
 */
export const whisperPlugin: SquidPlugin = {
  server(serv) {
    const commands = (serv as SquidServer & { commands: { add(command: Record<string, unknown>): void } })
      .commands;
    commands.add({
      base: 'tell',
      aliases: ['msg', 'w'],
      info: 'Whisper to a player',
      usage: '/tell <player> <message>',
      onlyPlayer: true,
      parse(text: string) {
        const match = /^(\S+) (.+)$/.exec(text);
        return match ? { to: match[1], message: match[2] } : false;
      },
      action(args: { to: string; message: string }, context: { player: SquidPlayer }) {
        const target = serv.players.find((player) => player.username === args.to);
        if (!target) {
          context.player.system(`No player named ${args.to}`);
          return;
        }
        if (serv.supportFeature('useChatSessions')) {
          sendPlayerChat(serv, target, context.player, args.message, 'msg_command_incoming');
        } else target.system(`${context.player.username} whispers to you: ${args.message}`);
      },
    });
  },
};

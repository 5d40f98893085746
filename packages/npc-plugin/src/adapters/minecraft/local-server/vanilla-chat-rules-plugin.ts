import type { SquidPlayer, SquidPlugin, SquidServer } from 'flying-squid';

/**
 * The chat rules a vanilla server enforces and flying-squid does not, so that a test world kicks
 * the NPC where a real one would:
 * - each chat line or command adds 20 to the player's spam counter, which falls by 1 every tick;
 *   past 200 a non-operator is kicked "for spamming";
 * - a line or command with a character vanilla's `isAllowedChatCharacter` refuses (`§`, anything
 *   below U+0020, DEL) gets "Illegal characters in chat";
 * - a line or command longer than 256 characters fails to decode, which disconnects the client.
 * Every command a player runs is recorded in `commandLog`, so tests can tell that none ran.
 */
export const SPAM_STEP = 20;
export const SPAM_LIMIT = 200;
export const MAX_CHAT_LENGTH = 256;
export const KICK_SPAM = 'Kicked for spamming';
export const KICK_ILLEGAL = 'Illegal characters in chat';
export const KICK_TOO_LONG = 'The received string length is longer than maximum allowed';

export interface ChatRulesLog {
  /** Chat lines players sent (commands not included), as the server received them. */
  lines: { player: string; message: string }[];
  /** Commands players ran (without the slash), oldest first. */
  commands: { player: string; command: string }[];
  /** Players kicked by these rules, with the reason. */
  kicks: { player: string; reason: string }[];
  /** The highest spam counter each player reached. */
  peak: Map<string, number>;
}

export function vanillaChatRulesPlugin(log: ChatRulesLog): SquidPlugin {
  return {
    server(serv: SquidServer) {
      const counters = new Map<SquidPlayer, number>();
      serv.on('tick', () => {
        for (const [player, count] of counters) if (count > 0) counters.set(player, count - 1);
      });
      serv.on('newPlayer', (player: SquidPlayer) => {
        counters.set(player, 0);
        player.once('disconnected', () => counters.delete(player));
        // Vanilla counts the command without its slash against the length limit, and checks it alike.
        const check = (text: string): boolean => {
          const count = (counters.get(player) ?? 0) + SPAM_STEP;
          counters.set(player, count);
          log.peak.set(player.username, Math.max(log.peak.get(player.username) ?? 0, count));
          let reason: string | null = null;
          if (text.length > MAX_CHAT_LENGTH) reason = KICK_TOO_LONG;
          else if ([...text].some((char) => !allowedChatCharacter(char))) reason = KICK_ILLEGAL;
          else if (count > SPAM_LIMIT && !player.op) reason = KICK_SPAM;
          if (reason === null) return true;
          log.kicks.push({ player: player.username, reason });
          player.kick(reason);
          return false;
        };
        player.on('chat_cancel', (data: { message: string; refused?: boolean }, cancel: () => void) => {
          log.lines.push({ player: player.username, message: data.message });
          if (check(data.message)) return;
          data.refused = true;
          cancel();
        });
        player.on('command_cancel', (data: { command: string }, cancel: () => void) => {
          if (!check(data.command)) {
            cancel();
            return;
          }
          log.commands.push({ player: player.username, command: data.command });
        });
      });
    },
  };
}

/** Vanilla's `StringUtil.isAllowedChatCharacter`. */
function allowedChatCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return char !== '§' && code >= 0x20 && code !== 0x7f;
}

export function newChatRulesLog(): ChatRulesLog {
  return { lines: [], commands: [], kicks: [], peak: new Map() };
}

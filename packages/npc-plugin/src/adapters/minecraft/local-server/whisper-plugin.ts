import type { SquidPlugin, SquidServer } from 'flying-squid';

/**
 * flying-squid has no private messages; vanilla's `/tell` (alias `/msg`, `/w`) is what mineflayer's
 * `bot.whisper` sends, so the local server adds it to let the demo and tests whisper to the NPC.
 * The recipient sees "<sender> whispers to you: <message>", the vanilla wording.
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
      action(
        args: { to: string; message: string },
        context: { player: { username: string; system(text: string): void } },
      ) {
        const target = serv.players.find((player) => player.username === args.to) as
          | (SquidServer['players'][number] & { system(text: string): void })
          | undefined;
        if (!target) {
          context.player.system(`No player named ${args.to}`);
          return;
        }
        target.system(`${context.player.username} whispers to you: ${args.message}`);
      },
    });
  },
};

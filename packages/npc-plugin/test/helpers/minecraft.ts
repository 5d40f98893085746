import mineflayer, { type Bot, type BotEvents } from 'mineflayer';
import {
  type LocalServer,
  startLocalServer,
} from '../../src/adapters/minecraft/local-server/local-server.js';

import { VERSION } from './versions.js';

export { NEWEST_SHARED_VERSION, VERSION } from './versions.js';

export function startServer(port = 0, version = VERSION): Promise<LocalServer> {
  return startLocalServer({ port, version });
}

/** A real mineflayer bot acting as a human player; resolves once it stands in the world. */
export async function joinPlayer(
  port: number,
  username: string,
  version = VERSION,
  timeoutMs = 10_000,
): Promise<Bot> {
  const bot = mineflayer.createBot({
    host: '127.0.0.1',
    port,
    username,
    version,
    auth: 'offline',
    hideErrors: true,
    logErrors: false,
  });
  // flying-squid puts a joining player back at its login position once the client has answered; wait
  // for that so a later /tp is not undone by it.
  await waitForEvent(bot, 'spawn', () => true, timeoutMs);
  await waitForEvent(bot, 'forcedMove', () => true, 3000).catch(() => undefined);
  return bot;
}

/** Waits for a bot event whose arguments satisfy `match`; removes its listener however it ends. */
export function waitForEvent<E extends keyof BotEvents>(
  bot: Bot,
  event: E,
  match: (...args: Parameters<BotEvents[E]>) => boolean,
  timeoutMs = 5000,
): Promise<Parameters<BotEvents[E]>> {
  return new Promise((resolve, reject) => {
    const listener = ((...args: Parameters<BotEvents[E]>) => {
      if (!match(...args)) return;
      clearTimeout(timer);
      bot.removeListener(event, listener);
      resolve(args);
    }) as BotEvents[E];
    const timer = setTimeout(() => {
      bot.removeListener(event, listener);
      reject(new Error(`no ${String(event)} event within ${timeoutMs} ms`));
    }, timeoutMs);
    bot.on(event, listener);
  });
}

/** Polls a condition (for state that no event announces); event-driven waits are preferred. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!ok(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    last = await probe();
  }
  return last;
}

/** Quits a bot and waits for its connection to close (flying-squid must see it leave before destroy). */
export async function quit(bot: Bot | undefined): Promise<void> {
  if (!bot) return;
  const ended = new Promise<void>((resolve) => {
    bot.once('end', () => resolve());
    setTimeout(resolve, 2000);
  });
  bot.quit();
  await ended;
}

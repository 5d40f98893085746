import type { Bot, BotEvents } from 'mineflayer';

type On = <E extends keyof BotEvents>(event: E, listener: BotEvents[E]) => void;

/**
 * Waits for bot events (mineflayer habit: "every wait for an event has a timeout and removes its
 * listeners"): `setup` subscribes through `on`, and every listener is removed however the wait ends.
 * When the signal aborts, the wait resolves with undefined; callers read the signal to know why.
 */
export function until<T>(
  bot: Bot,
  signal: AbortSignal,
  setup: (resolve: (value: T) => void, reject: (error: Error) => void, on: On) => void,
): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const listeners: [keyof BotEvents, (...args: never[]) => void][] = [];
    const cleanup = () => {
      for (const [event, listener] of listeners) bot.removeListener(event, listener as never);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      resolve(undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const on: On = (event, listener) => {
      listeners.push([event, listener as (...args: never[]) => void]);
      bot.on(event, listener as never);
    };
    setup(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error) => {
        cleanup();
        reject(error);
      },
      on,
    );
  });
}

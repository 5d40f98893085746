import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { SlidingWindow } from '../../shared/sliding-window.js';

/**
 * Most picked-up items given back per minute. A server that drops a thrown item at the thrower's feet
 * (flying-squid does) would hand it straight back; past this the NPC keeps what it picks up rather than
 * throw it to and fro.
 */
export const RETURNS_PER_MINUTE = 20;
/** Longest wait for the inventory update that follows the pickup. */
const SETTLE_MS = 1000;

/**
 * Gives back what the server makes the NPC pick up. A client cannot refuse a pickup: the server moves
 * any dropped item within reach into a player's inventory while it has room. So the NPC throws each
 * picked-up item out again (as many as it picked up, not the stack they joined), one pickup at a
 * time, and keeps what it carried before. Returns the unsubscribe function.
 */
export function returnPickedUpItems(bot: Bot, onKept: (item: string) => void = () => undefined): () => void {
  const budget = new SlidingWindow(RETURNS_PER_MINUTE, 60_000);
  let queue: Promise<void> = Promise.resolve();
  const giveBack = async (before: Map<number, number>) => {
    const gained = await firstGain(bot, before);
    if (!gained) return;
    if (!budget.tryHit('returns')) {
      onKept(bot.registry.items[gained.type]?.name ?? String(gained.type));
      return;
    }
    await bot.toss(gained.type, null, gained.count);
  };
  // What was picked up is read from the inventory, not from the item entity: servers need not send
  // the item's metadata (flying-squid does not), and the count added is what must go back.
  const onCollect = (collector: Entity) => {
    if (collector !== bot.entity) return;
    const before = counts(bot);
    queue = queue.then(() => giveBack(before)).catch(() => undefined);
  };
  bot.on('playerCollect', onCollect);
  return () => bot.removeListener('playerCollect', onCollect);
}

function counts(bot: Bot): Map<number, number> {
  const totals = new Map<number, number>();
  for (const item of bot.inventory.items()) totals.set(item.type, (totals.get(item.type) ?? 0) + item.count);
  return totals;
}

/**
 * The first item type whose count grew past `before`, and by how much: the inventory update that
 * follows a pickup. Null when none shows within SETTLE_MS (the inventory was full, say).
 */
function firstGain(bot: Bot, before: Map<number, number>): Promise<{ type: number; count: number } | null> {
  return new Promise((resolve) => {
    const check = () => {
      for (const [type, count] of counts(bot)) {
        const gain = count - (before.get(type) ?? 0);
        if (gain > 0) return done({ type, count: gain });
      }
    };
    const done = (gained: { type: number; count: number } | null) => {
      clearTimeout(timer);
      bot.inventory.removeListener('updateSlot', check);
      resolve(gained);
    };
    const timer = setTimeout(() => done(null), SETTLE_MS);
    bot.inventory.on('updateSlot', check);
    check();
  });
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Bot } from 'mineflayer';
import type { EmoteName } from '../../core/emotes.js';
import { ActionError, type Position } from '../../core/game.js';

/**
 * The emotes as other players see them: arm swings (animation packets), head movements (look
 * packets), a jump (position updates) and sneaking (entity metadata). Each step waits on the signal,
 * and the head and controls are put back however an emote ends.
 */
export async function playEmote(
  bot: Bot,
  name: EmoteName,
  target: Position | null,
  signal: AbortSignal,
): Promise<void> {
  const yaw = bot.entity.yaw;
  const pitch = bot.entity.pitch;
  const pause = (ms: number) => sleep(ms, undefined, { signal });
  try {
    switch (name) {
      case 'wave':
        for (let i = 0; i < 3; i++) {
          bot.swingArm('right');
          await pause(250);
        }
        break;
      case 'nod':
        for (let i = 0; i < 2; i++) {
          await bot.look(yaw, -0.6, true);
          await pause(200);
          await bot.look(yaw, 0.3, true);
          await pause(200);
        }
        break;
      case 'shake_head':
        for (let i = 0; i < 2; i++) {
          await bot.look(yaw + 0.6, pitch, true);
          await pause(200);
          await bot.look(yaw - 0.6, pitch, true);
          await pause(200);
        }
        break;
      case 'jump':
        bot.setControlState('jump', true);
        await pause(250);
        bot.setControlState('jump', false);
        await pause(500);
        break;
      case 'crouch':
        bot.setControlState('sneak', true);
        await pause(800);
        break;
      case 'spin':
        for (let step = 1; step <= 8; step++) {
          await bot.look(yaw + (step * Math.PI) / 4, pitch, true);
          await pause(100);
        }
        break;
      case 'point_at': {
        if (!target) throw new ActionError('failed', 'point_at needs a target');
        await bot.lookAt(bot.entity.position.clone().set(target.x, target.y, target.z), true);
        bot.swingArm('right');
        await pause(600);
        return;
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    bot.setControlState('jump', false);
    bot.setControlState('sneak', false);
  }
  if (name !== 'jump' && name !== 'crouch' && name !== 'wave')
    await bot.look(yaw, pitch, true).catch(() => undefined);
}

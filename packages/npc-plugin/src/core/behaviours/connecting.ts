import { withDeadline } from '../../shared/deadline.js';
import type { GameAdapter } from '../game.js';

/**
 * The connecting behaviour: join the world within `timeoutMs`. It is driven by the connection
 * supervisor rather than by a command, so it sits outside the command pre-emption rules.
 */
export async function connecting(game: GameAdapter, timeoutMs: number, signal: AbortSignal): Promise<void> {
  await withDeadline(signal, timeoutMs, (guarded) => game.connect({ signal: guarded }));
}

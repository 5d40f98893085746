import type { ChatTurn } from '../gateway/llm-gateway.js';

/**
 * Per-player memory of the last turns. One turn is the player's line and the
 * NPC's answer. The least recently heard players are forgotten first beyond `maxPlayers`.
 */
export class ConversationMemory {
  readonly #turns = new Map<string, ChatTurn[]>();

  constructor(
    private readonly turnsPerPlayer: number,
    private readonly maxPlayers = 200,
  ) {}

  history(player: string): readonly ChatTurn[] {
    return this.#turns.get(player) ?? [];
  }

  remember(player: string, said: string, answer: string): void {
    if (this.turnsPerPlayer === 0) return;
    const turns = [
      ...this.history(player),
      { role: 'user', content: said } as const,
      { role: 'assistant', content: answer } as const,
    ];
    this.#turns.delete(player);
    this.#turns.set(player, turns.slice(-this.turnsPerPlayer * 2));
    if (this.#turns.size > this.maxPlayers) {
      const oldest = this.#turns.keys().next().value;
      if (oldest !== undefined) this.#turns.delete(oldest);
    }
  }
}

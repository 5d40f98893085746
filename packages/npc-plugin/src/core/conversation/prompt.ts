import type { ChatMessage } from '../gateway/llm-gateway.js';

/**
 * Builds the chat-completions messages: the configured system prompt with `{name}`, `{player}` and
 * `{perception}` filled in, the player's remembered turns, then the new line.
 */
export function buildPrompt(options: {
  template: string;
  npcName: string;
  player: string;
  whisper: boolean;
  perception: string;
  history: readonly ChatMessage[];
  message: string;
}): ChatMessage[] {
  let system = options.template
    .replaceAll('{name}', options.npcName)
    .replaceAll('{player}', options.player)
    .replaceAll('{perception}', options.perception);
  if (!options.template.includes('{perception}'))
    system += `\nWhat you currently perceive:\n${options.perception}`;
  system += `\nYou are talking with the player ${options.player}${options.whisper ? ', who whispered to you' : ''}.`;
  return [
    { role: 'system', content: system },
    ...options.history,
    { role: 'user', content: options.message },
  ];
}

import { EMOTE_TIMEOUT_MS, type EmoteName } from '../emotes.js';
import type { LookTarget } from '../game.js';
import type { Behaviour } from '../state-machine.js';

export interface EmoteParams {
  name: EmoteName;
  target: LookTarget | null;
}

/** `POST /emote`: one short gesture from the fixed list. */
export const emoting: Behaviour<EmoteParams> = {
  state: 'emoting',
  kind: 'emote',
  timeoutMs: () => EMOTE_TIMEOUT_MS,
  describe: (params) =>
    params.target ? { name: params.name, target: params.target } : { name: params.name },
  run: (params, { game, signal }) => game.emote(params.name, params.target, { signal }),
};

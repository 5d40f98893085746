import type { Behaviour } from '../state-machine.js';

export interface TalkParams {
  /** Resolves when the NPC has nothing more to say and no reply is being composed. */
  quiet: (signal: AbortSignal) => Promise<void>;
  /** Who the NPC is talking to ("chat" for `POST /chat`). */
  with: string;
}

/** Upper bound on one talking spell: a gateway call with its retries plus a few chat lines. */
export const TALK_TIMEOUT_MS = 120_000;

/**
 * The NPC is idle but speaking or composing a reply. Pre-empting it (a `/move`, say) only ends the
 * state: the chat outbox and the gateway request carry on, because a walking NPC may still talk.
 */
export const talking: Behaviour<TalkParams> = {
  state: 'talking',
  kind: 'talk',
  timeoutMs: () => TALK_TIMEOUT_MS,
  describe: (params) => ({ with: params.with }),
  run: (params, { signal }) => params.quiet(signal),
};

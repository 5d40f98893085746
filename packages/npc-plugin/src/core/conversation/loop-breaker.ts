/**
 * Stops a reply ping-pong with another bot (another NPC of this kind, say) on its own. An exchange
 * is "quick" when the speaker's line comes within QUICK_MS of the NPC's last reply to them, as a bot
 * answers; after `maxQuick` quick exchanges in a row the NPC stops answering that speaker until the
 * speaker has been silent for QUIET_MS. A person who pauses between lines never trips it; one who
 * keeps firing lines at once gets a short break, which the per-player reply limit mostly gives anyway.
 */
export const QUICK_MS = 10_000;
export const QUIET_MS = 30_000;
export const DEFAULT_MAX_QUICK_EXCHANGES = 12;

interface Track {
  /** When the NPC last queued a reply to this speaker. */
  repliedAt: number | null;
  /** When the speaker last said anything to the NPC. */
  heardAt: number;
  quick: number;
}

export class LoopBreaker {
  readonly #tracks = new Map<string, Track>();

  constructor(
    private readonly maxQuick = DEFAULT_MAX_QUICK_EXCHANGES,
    private readonly maxSpeakers = 500,
  ) {}

  /** Whether a line heard at `now` may be answered; call once per line that would be answered. */
  allow(speaker: string, now: number): boolean {
    const key = speaker.toLowerCase();
    const track = this.#tracks.get(key) ?? { repliedAt: null, heardAt: now, quick: 0 };
    const quiet = now - track.heardAt >= QUIET_MS;
    if (quiet) track.quick = 0;
    else if (track.repliedAt !== null && now - track.repliedAt < QUICK_MS) track.quick += 1;
    track.heardAt = now;
    this.#tracks.delete(key);
    this.#tracks.set(key, track);
    if (this.#tracks.size > this.maxSpeakers) this.#tracks.delete(this.#tracks.keys().next().value!);
    return track.quick < this.maxQuick;
  }

  /** Records that the NPC replied to the speaker at `now`. */
  replied(speaker: string, now: number): void {
    const track = this.#tracks.get(speaker.toLowerCase());
    if (track) track.repliedAt = now;
  }
}

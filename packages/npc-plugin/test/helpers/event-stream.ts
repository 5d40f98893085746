export interface EventFrame {
  /** The id as sent, `<boot epoch>-<sequence>`. */
  id: string;
  /** The sequence part of the id. */
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

/** A Server-Sent Events client that collects every frame it receives until closed. */
export class EventStream {
  readonly frames: EventFrame[] = [];
  readonly #controller = new AbortController();
  #done: Promise<void> = Promise.resolve();

  static async open(url: string, authorization: string, lastEventId?: string): Promise<EventStream> {
    const stream = new EventStream();
    const headers: Record<string, string> = { authorization };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await fetch(url, { headers, signal: stream.#controller.signal });
    if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
    stream.#done = stream.#read(response).catch(() => undefined);
    return stream;
  }

  /** The id a client would send to resume: the last one received. */
  get lastId(): string | undefined {
    return this.frames.at(-1)?.id;
  }

  close(): Promise<void> {
    this.#controller.abort();
    return this.#done;
  }

  async #read(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (block.startsWith(':')) continue;
        const fields = Object.fromEntries(
          block
            .split('\n')
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
        );
        this.frames.push({
          id: fields.id!,
          seq: Number(fields.id!.slice(fields.id!.lastIndexOf('-') + 1)),
          event: fields.event!,
          data: JSON.parse(fields.data!),
        });
      }
    }
  }
}

import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EVENT_BUFFER_SIZE,
  EVENT_ID_PATTERN,
  type EventHub,
  type Resume,
  type StoredEvent,
} from '../core/events/event-hub.js';
import { commonErrors, ErrorBody } from './schemas.js';

/** A comment line keeps proxies and clients from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/**
 * Bytes a client may leave unread before it is dropped: a slow consumer is cut off rather than
 * letting the NPC buffer for it without end (it can reconnect with Last-Event-ID).
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ pattern: EVENT_ID_PATTERN, description: 'Resume after this event id' }),
  ),
});

/** One Server-Sent Events frame: id, event name, and the data as one JSON line. */
export function frame(event: StoredEvent): string {
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The frame that tells a resuming client to drop what it knows, before the events that follow. */
export function resetFrame(reset: NonNullable<Resume['reset']>, lastEventId: string): string {
  const data = { reason: reset.reason, last_event_id: lastEventId, at: new Date().toISOString() };
  return `id: ${reset.id}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`;
}

export const eventsRoute =
  (events: EventHub, permission: string, heartbeatMs = HEARTBEAT_MS): FastifyPluginAsyncTypebox =>
  async (app) => {
    const open = new Set<ServerResponse>();
    // Streams never end by themselves; closing the server ends them so shutdown does not wait.
    app.addHook('onClose', async () => {
      for (const stream of open) stream.end();
    });
    app.get(
      '/events',
      {
        config: { permission },
        schema: {
          operationId: 'streamEvents',
          summary: 'Stream what happens (Server-Sent Events)',
          description:
            'text/event-stream. Event names: chat {player, message, distance, whisper}, reply {player (null for POST /chat), lines, whisper}, ' +
            'state {from, to}, goal {id, kind, target, status, error} (when it starts and when it ends), player {name, ' +
            'status: joined | left} (the chat radius), connection {status: connecting | connected | disconnected | failed, ' +
            'attempt, reason}, chat_dropped {lines, whisper_to, reason: backlog_full} (reply lines the chat rate governor could not queue); every data object also has `at` (ISO 8601). An id is `<boot epoch>-<sequence>`: the epoch ' +
            'names the NPC process (its start time, base 36), the sequence increases by one per event from 1; treat ids as ' +
            `opaque. Send Last-Event-ID to get the missed events still in the buffer (the last ${EVENT_BUFFER_SIZE}). When ` +
            'the stream cannot continue where the client left off, a reset event {reason, last_event_id} comes first: ' +
            'reason "restarted" for an id of another process (the NPC restarted; a bare number from a version without ' +
            'epochs counts as one) or one this process never gave, "expired" when events after it fell out of the buffer; ' +
            'the whole buffer follows, and the reset carries the id just before it. A client should drop its view of ' +
            `the NPC on reset. A ": heartbeat" comment comes every ` +
            `${HEARTBEAT_MS / 1000} s. A client that leaves more than ${MAX_UNREAD_BYTES} bytes unread is disconnected.`,
          tags: ['npc'],
          security: [{ basic: [] }],
          headers: EventsHeaders,
          response: {
            200: {
              description: 'An endless event stream',
              content: { 'text/event-stream': { schema: Type.String() } },
            },
            400: { ...ErrorBody, description: 'Last-Event-ID is not an event id' },
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const header = request.headers['last-event-id'];
        const { reset, events: backlog } = events.resume(header ?? null);
        reply.hijack();
        const raw = reply.raw;
        request.raw.socket.setTimeout(0);
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        const send = (text: string) => {
          if (raw.destroyed) return;
          raw.write(text);
          if (raw.writableLength > MAX_UNREAD_BYTES) {
            request.log.warn({ unread: raw.writableLength }, 'dropping a slow event-stream client');
            raw.destroy();
          }
        };
        open.add(raw);
        const unsubscribe = events.subscribe((event) => send(frame(event)));
        const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
        raw.once('close', () => {
          open.delete(raw);
          unsubscribe();
          clearInterval(heartbeat);
        });
        send(': connected\n\n');
        if (reset && header !== undefined) send(resetFrame(reset, header));
        for (const event of backlog) send(frame(event));
      },
    );
  };

import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NpcApp } from '../../src/app.js';
import { EventHub } from '../../src/core/events/event-hub.js';
import { eventsRoute } from '../../src/routes/events.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { eventually } from '../helpers/minecraft.js';

interface Frame {
  id: string;
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

/** Reads an SSE response until `count` events arrived (comments are collected apart). */
async function readEvents(response: Response, count: number, comments: string[] = []): Promise<Frame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let text = '';
  while (frames.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      if (block.startsWith(':')) {
        comments.push(block);
        continue;
      }
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      frames.push({
        id: fields.id!,
        seq: Number(fields.id!.slice(fields.id!.lastIndexOf('-') + 1)),
        event: fields.event!,
        data: JSON.parse(fields.data!),
      });
    }
  }
  await reader.cancel();
  return frames;
}

describe('GET /npc/events', () => {
  let app: NpcApp;
  let base: string;
  const authorization = basic('all', 'pw');

  beforeAll(async () => {
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    app = await buildTestApp(accounts);
    base = `${await app.web.listen()}/npc`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('streams events with increasing ids and resumes after Last-Event-ID', async () => {
    const response = await fetch(`${base}/events`, { headers: { authorization } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await eventually(
      () => app.npc.events.subscribers,
      (n) => n === 1,
    );
    app.npc.events.publish('chat', { player: 'Alice', message: 'hi', distance: 2, whisper: false });
    app.npc.events.publish('reply', { player: 'Alice', lines: ['hello'], whisper: false });
    const first = await readEvents(response, 2);
    expect(first.map((f) => f.event)).toEqual(['chat', 'reply']);
    expect(first[1]!.seq).toBe(first[0]!.seq + 1);
    expect(first[0]!.id).toBe(`${app.npc.events.epoch}-${first[0]!.seq}`);
    expect(first[0]!.data).toMatchObject({ player: 'Alice', message: 'hi', at: expect.stringMatching(/Z$/) });

    // While nobody listens, two more happen; a reconnect with the last id gets exactly those.
    await eventually(
      () => app.npc.events.subscribers,
      (n) => n === 0,
    );
    app.npc.events.publish('state', { from: 'idle', to: 'talking' });
    app.npc.events.publish('state', { from: 'talking', to: 'idle' });
    const resumed = await fetch(`${base}/events`, {
      headers: { authorization, 'last-event-id': first[1]!.id },
    });
    const missed = await readEvents(resumed, 2);
    expect(missed.map((f) => [f.seq, f.data.to])).toEqual([
      [first[1]!.seq + 1, 'talking'],
      [first[1]!.seq + 2, 'idle'],
    ]);
  });

  it('sends a reset first to a client resuming with an id of an earlier process, then the whole buffer', async () => {
    const buffered = app.npc.events.resume('0-0').events;
    for (const earlier of ['zzzzzzz-3', '17']) {
      const response = await fetch(`${base}/events`, {
        headers: { authorization, 'last-event-id': earlier },
      });
      const frames = await readEvents(response, 1 + buffered.length);
      expect(frames[0]).toMatchObject({
        event: 'reset',
        id: `${app.npc.events.epoch}-${buffered[0]!.seq - 1}`,
        data: { reason: 'restarted', last_event_id: earlier },
      });
      expect(frames.slice(1).map((f) => f.id)).toEqual(buffered.map((event) => event.id));
    }
  });

  it('needs npc.web.events and refuses a malformed Last-Event-ID naming it', async () => {
    expect((await fetch(`${base}/events`)).status).toBe(401);
    const bad = await fetch(`${base}/events`, { headers: { authorization, 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe('last-event-id');
  });
});

describe('EventHub.resume', () => {
  it('continues after an id of this process and resets for others or for events gone from the buffer', () => {
    const hub = new EventHub(3, 'boot1');
    for (let i = 0; i < 5; i++) hub.publish('state', { from: 'idle', to: `s${i}` });
    const ids = (resume: ReturnType<EventHub['resume']>) => resume.events.map((event) => event.id);
    expect(hub.resume(null)).toEqual({ reset: null, events: [] });
    expect(hub.resume('boot1-3')).toMatchObject({ reset: null });
    expect(ids(hub.resume('boot1-3'))).toEqual(['boot1-4', 'boot1-5']);
    expect(ids(hub.resume('boot1-5'))).toEqual([]);
    // Event 2 fell out of the three-event buffer: what came after boot1-1 cannot all be sent.
    expect(hub.resume('boot1-1')).toMatchObject({ reset: { reason: 'expired', id: 'boot1-2' } });
    expect(ids(hub.resume('boot1-1'))).toEqual(['boot1-3', 'boot1-4', 'boot1-5']);
    expect(hub.resume('boot1-2')).toMatchObject({ reset: null });
    for (const other of ['boot0-4', '4', 'boot1-9']) {
      expect(hub.resume(other)).toMatchObject({ reset: { reason: 'restarted', id: 'boot1-2' } });
      expect(ids(hub.resume(other))).toEqual(['boot1-3', 'boot1-4', 'boot1-5']);
    }
    // A restarted process with nothing to tell yet: the reset names the id before its first event.
    expect(new EventHub(3, 'boot2').resume('boot1-5')).toEqual({
      reset: { reason: 'restarted', id: 'boot2-0' },
      events: [],
    });
  });
});

describe('event stream delivery', () => {
  const hub = new EventHub();
  const app = Fastify();
  let port = 0;

  beforeAll(async () => {
    await app.register(eventsRoute(hub, 'npc.web.events', 50));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const comments: string[] = [];
    const response = await fetch(`http://127.0.0.1:${port}/events`);
    setTimeout(() => hub.publish('player', { name: 'Alice', status: 'joined' }), 200);
    await readEvents(response, 1, comments);
    expect(comments).toContain(': heartbeat');
  });

  it('drops a client that stops reading instead of blocking or buffering without end', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await eventually(
      () => hub.subscribers,
      (n) => n === 1,
    );
    socket.pause();
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const message = 'x'.repeat(4096);
    const started = performance.now();
    // Far more than the unread limit plus what the kernel buffers on loopback.
    for (let i = 0; i < 40 && hub.subscribers > 0; i++) {
      for (let j = 0; j < 200; j++)
        hub.publish('chat', { player: 'Spam', message, distance: 1, whisper: false });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.subscribers).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);
    socket.resume();
    socket.on('data', () => undefined);
    await closed;
  });
});

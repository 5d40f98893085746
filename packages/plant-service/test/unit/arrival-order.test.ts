/** Every request is one arrival for the embedded database's statement order, bodies or not. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { currentArrival } from '../../src/db/statement-order.js';
import { orderByArrival } from '../../src/http/arrival-order.js';

describe('requests as arrivals', () => {
  it('gives each request, with or without a body, its own arrival that its handler keeps across awaits', async () => {
    const app = Fastify();
    orderByArrival(app);
    const seen = async () => {
      const before = currentArrival();
      await new Promise((r) => setTimeout(r, 5));
      return { before, after: currentArrival() };
    };
    app.get('/read', seen);
    app.post('/write', seen);
    // Over a real socket: a body arrives in the socket's own events, unlike with inject.
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' };
    const responses = await Promise.all([
      fetch(`${base}/read`),
      fetch(`${base}/write`, post),
      fetch(`${base}/read`),
    ]);
    const arrivals = (await Promise.all(responses.map((r) => r.json()))) as {
      before?: number;
      after?: number;
    }[];
    for (const a of arrivals) {
      expect(a.before).toBeTypeOf('number');
      expect(a.after).toBe(a.before);
    }
    expect(new Set(arrivals.map((a) => a.before)).size).toBe(3);
    await app.close();
  });
});

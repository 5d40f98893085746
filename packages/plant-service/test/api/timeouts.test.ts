/**
 * The server's timeouts over real sockets: a body or headers trickling in one byte at a time end
 * with a 408 or a closed connection soon after their deadline, and an idle keep-alive connection is
 * closed, while a prompt request is answered.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';

const HEADERS_S = 0.6;
const REQUEST_S = 1;
const KEEP_ALIVE_S = 0.5;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    HEADERS_TIMEOUT_SECONDS: String(HEADERS_S),
    REQUEST_TIMEOUT_SECONDS: String(REQUEST_S),
    KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_S),
    IDLE_TIMEOUT_SECONDS: '5',
  });
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(() => t.close());

/** Sends `head`, then `trickle` one byte every `everyMs`; resolves with what came back and when the socket closed. */
function slowClient(
  head: string,
  trickle: string,
  everyMs: number,
): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
    socket.write(head);
    timer = setInterval(() => {
      if (socket.destroyed || sent >= trickle.length) return;
      socket.write(trickle[sent++] as string);
    }, everyMs);
  });
}

describe(`HTTP server timeouts (${backend})`, () => {
  it('ends a body sent one byte every 100 ms soon after REQUEST_TIMEOUT_SECONDS', async () => {
    const body = JSON.stringify({ species: ['a', 'b'] }).padEnd(200, ' ');
    const { answer, closedAfterMs } = await slowClient(
      'POST /api/v1/guilds/check HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        `content-length: ${body.length}\r\n\r\n`,
      body,
      100,
    );
    // 200 bytes at 10 a second would take 20 s.
    expect(closedAfterMs).toBeLessThan(REQUEST_S * 1000 + 1_500);
    expect(closedAfterMs).toBeGreaterThan(REQUEST_S * 1000 - 100);
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('ends headers sent one byte every 100 ms soon after HEADERS_TIMEOUT_SECONDS', async () => {
    const { answer, closedAfterMs } = await slowClient(
      'GET /health HTTP/1.1\r\n',
      `Host: 127.0.0.1\r\nx-padding: ${'p'.repeat(200)}\r\n\r\n`,
      100,
    );
    expect(closedAfterMs).toBeLessThan(HEADERS_S * 1000 + 1_500);
    expect(closedAfterMs).toBeGreaterThan(HEADERS_S * 1000 - 100);
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers a prompt request, then closes the idle keep-alive connection after KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
    const started = performance.now();
    const { answer, closedAfterMs } = await slowClient(
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      '',
      100,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThan(KEEP_ALIVE_S * 1000 - 100);
    expect(performance.now() - started).toBeLessThan(KEEP_ALIVE_S * 1000 + 1_500);
  });
});

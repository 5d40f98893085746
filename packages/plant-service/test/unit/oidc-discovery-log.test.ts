/**
 * A provider that cannot be reached at start is not fatal (login answers 503 while discovery
 * retries), but each failed attempt is one plain log line naming the cause and OIDC_ISSUER,
 * without a stack.
 */
import { once } from 'node:events';
import net from 'node:net';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { createRelyingParty } from '../../src/auth/oidc/relying-party.js';

it('logs a failed discovery as one line naming the cause and OIDC_ISSUER', async () => {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');

  const lines: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
  const issuer = `http://127.0.0.1:${port}`;
  const rp = createRelyingParty(
    {
      issuer,
      clientId: 'plants',
      clientSecret: undefined,
      scopes: 'openid',
      redirectUri: 'http://127.0.0.1/cb',
      allowHttp: true,
    },
    { groupsClaim: 'groups', wantGroups: false },
    log,
    { firstMs: 60_000, maxMs: 60_000 },
  );
  try {
    rp.start();
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry.msg).toBe(
      `OIDC provider discovery at ${issuer} failed (ECONNREFUSED); login answers 503 until it succeeds; check OIDC_ISSUER`,
    );
    expect(entry.variable).toBe('OIDC_ISSUER');
    expect(lines[0]).not.toContain('    at ');
  } finally {
    await rp.close();
  }
});

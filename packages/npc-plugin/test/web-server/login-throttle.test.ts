import { writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailable } from '../../src/errors.js';
import { MAX_QUEUED, PasswordCheck } from '../../src/web-server/password-check.js';
import { hashPassword } from '../../src/web-server/password-hash.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';

const status = (
  app: Awaited<ReturnType<typeof buildTestApp>>,
  authorization: string,
  remoteAddress: string,
  forwardedFor?: string,
) =>
  app.web.app.inject({
    method: 'GET',
    url: '/npc/status',
    headers: { authorization, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    remoteAddress,
  });

describe('failed logins per account', () => {
  it('locks a name guessed from many addresses once NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE is reached', async () => {
    const accounts = await writeAccounts([
      { username: 'ops', password: 'pw-ops', permissions: ['npc.web.*'] },
      { username: 'other', password: 'pw-other', permissions: ['npc.web.*'] },
    ]);
    const app = await buildTestApp(accounts, {
      NPC_LOGIN_FAILURES_PER_MINUTE: '2',
      NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: '4',
    });
    try {
      // Two guesses from each of two addresses: each (address, name) bucket is just full.
      for (const address of ['10.1.0.1', '10.1.0.2'])
        for (let i = 0; i < 2; i++)
          expect((await status(app, basic('ops', `guess-${i}`), address)).statusCode).toBe(401);
      // A fresh address, even with the right password: the account has had its four failures.
      const blocked = await status(app, basic('ops', 'pw-ops'), '10.1.0.3');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().error).toMatch(/too many failed logins/);
      // Other accounts, from any of those addresses, are untouched.
      expect((await status(app, basic('other', 'pw-other'), '10.1.0.1')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses a per-account limit below the per-name one', async () => {
    await expect(
      buildTestApp(await writeAccounts([]), {
        NPC_LOGIN_FAILURES_PER_MINUTE: '5',
        NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: '4',
      }),
    ).rejects.toThrow(/NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: must not be smaller/);
  });
});

describe('clients behind a reverse proxy (NPC_TRUST_PROXY)', () => {
  const PROXY = '127.0.0.1';

  it('keys the throttle on the forwarded client address when the proxy is trusted', async () => {
    const accounts = await writeAccounts([
      { username: 'ops', password: 'pw-ops', permissions: ['npc.web.*'] },
    ]);
    const env = { NPC_LOGIN_FAILURES_PER_MINUTE: '3', NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '3' };
    const trusting = await buildTestApp(accounts, { ...env, NPC_TRUST_PROXY: `${PROXY}, 10.0.0.0/8` });
    const plain = await buildTestApp(accounts, env);
    try {
      for (const app of [trusting, plain])
        for (let i = 0; i < 3; i++)
          expect((await status(app, basic('ops', `guess-${i}`), PROXY, '203.0.113.5')).statusCode).toBe(401);
      // Another operator behind the same proxy: locked out only when the proxy's address is the key.
      expect((await status(trusting, basic('ops', 'pw-ops'), PROXY, '203.0.113.6')).statusCode).toBe(200);
      expect((await status(plain, basic('ops', 'pw-ops'), PROXY, '203.0.113.6')).statusCode).toBe(429);
      // The guesser stays locked however it reaches the trusted proxy.
      expect((await status(trusting, basic('ops', 'pw-ops'), PROXY, '203.0.113.5')).statusCode).toBe(429);
    } finally {
      await trusting.close();
      await plain.close();
    }
  });

  it('does not believe X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const accounts = await writeAccounts([
      { username: 'ops', password: 'pw-ops', permissions: ['npc.web.*'] },
    ]);
    const app = await buildTestApp(accounts, {
      NPC_LOGIN_FAILURES_PER_MINUTE: '3',
      NPC_TRUST_PROXY: PROXY,
    });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await status(app, basic('ops', `guess-${i}`), '198.51.100.7', `192.0.2.${i}`)).statusCode,
        ).toBe(401);
      expect((await status(app, basic('ops', 'pw-ops'), '198.51.100.7', '192.0.2.99')).statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('refuses a hop count and anything that is not an address or range, naming the variable', async () => {
    const accounts = await writeAccounts([]);
    await expect(buildTestApp(accounts, { NPC_TRUST_PROXY: '1' })).rejects.toThrow(
      /NPC_TRUST_PROXY: 1 looks like a hop count/,
    );
    await expect(buildTestApp(accounts, { NPC_TRUST_PROXY: '127.0.0.1, proxy.example' })).rejects.toThrow(
      /NPC_TRUST_PROXY: "proxy.example" is not an address/,
    );
    await expect(buildTestApp(accounts, { NPC_TRUST_PROXY: '10.0.0.0/33' })).rejects.toThrow(
      /"10.0.0.0\/33"/,
    );
  });
});

describe('password hashing off the event loop', () => {
  // Real costs, not the tests' cheap ones: each comparison takes tens to hundreds of ms.
  const schemes = [
    ['PBKDF2, 600,000 iterations (new accounts)', () => hashPassword('the right one')],
    ['bcrypt, cost 10 (older files)', async () => bcrypt.hashSync('the right one', 10)],
  ] as const;
  for (const [scheme, makeHash] of schemes) {
    it(`keeps the event loop responsive while failed logins run against ${scheme}`, async () => {
      const file = await writeAccounts([]);
      await writeFile(
        file,
        JSON.stringify({
          groups: { anonymous: [] },
          accounts: [
            { username: 'ops', password_hash: await makeHash(), groups: [], permissions: ['npc.web.*'] },
          ],
        }),
      );
      const app = await buildTestApp(file, {
        NPC_LOGIN_FAILURES_PER_MINUTE: '100',
        NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: '100',
        NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '100',
      });
      try {
        // Warm up: the first check starts what runs it.
        expect((await status(app, basic('ops', 'warm-up'), '10.2.0.1')).statusCode).toBe(401);
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const busyBefore = performance.eventLoopUtilization();
        const started = performance.now();
        // Half against the account, half against unknown names (checked against a hash just as costly).
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            status(app, basic(i % 2 ? 'ops' : `nobody${i}`, `guess-${i}`), '10.2.0.1'),
          ),
        );
        const elapsed = performance.now() - started;
        const busy = performance.eventLoopUtilization(busyBefore).utilization;
        delay.disable();
        expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(401));
        const maxMs = delay.max / 1e6;
        const p99Ms = delay.percentile(99) / 1e6;
        const p50Ms = delay.percentile(50) / 1e6;
        console.info(
          `8 failed logins, ${scheme}: ${elapsed.toFixed(0)} ms in all; event loop busy ${(busy * 100).toFixed(0)} %, ` +
            `delay p50 ${p50Ms.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms, max ${maxMs.toFixed(1)} ms`,
        );
        // The comparisons took real time, yet the loop was mostly idle and its turns short. With bcrypt
        // on the loop it was busy the whole time and stalled for 456 ms at once. The delay percentiles
        // also count time the OS gives other processes, so on a loaded machine they get a wide margin;
        // the loop's own busy share does not depend on the machine's load.
        expect(elapsed).toBeGreaterThan(8 * 20);
        expect(busy).toBeLessThan(0.3);
        expect(p50Ms).toBeLessThan(10);
        expect(maxMs).toBeLessThan(250);
      } finally {
        await app.close();
      }
    });
  }
});

describe('PasswordCheck', () => {
  it('verifies bcrypt hashes on its thread and refuses checks beyond its queue with a 503 error', async () => {
    const check = new PasswordCheck();
    const hash = bcrypt.hashSync('secret', 4);
    try {
      expect(await check.compare('secret', hash)).toBe(true);
      expect(await check.compare('wrong', hash)).toBe(false);
      expect(await check.compare('secret', 'not a hash')).toBe(false);
      const queued = Array.from({ length: MAX_QUEUED }, () => check.compare('wrong', hash));
      const refused = await check.compare('secret', hash).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ServiceUnavailable);
      expect((refused as ServiceUnavailable).retryAfterSeconds).toBe(1);
      expect(await Promise.all(queued)).toEqual(Array(MAX_QUEUED).fill(false));
    } finally {
      await check.close();
    }
  });

  it('stops its thread when idle and starts it again for the next check', async () => {
    const check = new PasswordCheck(50);
    const hash = bcrypt.hashSync('secret', 4);
    try {
      expect(await check.compare('secret', hash)).toBe(true);
      expect(check.running).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(check.running).toBe(false);
      expect(await check.compare('secret', hash)).toBe(true);
      expect(await check.compare('nope', hash)).toBe(false);
    } finally {
      await check.close();
    }
  });
});

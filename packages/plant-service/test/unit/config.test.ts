import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ INIT_CWD: '/srv/plants' });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/plants/data'),
      databaseUrl: undefined,
      demoData: true,
      logLevel: 'info',
      writeAccess: 'groups',
      sessionIdleMs: 12 * 3_600_000,
      sessionMaxMs: 7 * 86_400_000,
      tokenDefaultMs: 90 * 86_400_000,
      tokenMaxMs: 365 * 86_400_000,
      roleRefreshMs: 86_400_000,
      metricsToken: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('converts values from text', () => {
    const config = loadConfig({
      PORT: '9000',
      DEMO_DATA: 'false',
      WRITE_ACCESS: 'admins',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(config).toMatchObject({
      port: 9000,
      demoData: false,
      writeAccess: 'admins',
      databaseUrl: 'postgres://u@h/db',
    });
  });

  it('refuses a token default longer than the maximum, and a short metrics token', () => {
    let problems = '';
    try {
      loadConfig({ TOKEN_DEFAULT_DAYS: '400', METRICS_TOKEN: 'short' });
    } catch (error) {
      problems = (error as ConfigError).message;
    }
    expect(problems).toMatch(/TOKEN_MAX_DAYS: must not be shorter than TOKEN_DEFAULT_DAYS/);
    expect(problems).toMatch(/METRICS_TOKEN/);
  });

  it('names every bad variable at once', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', WRITE_ACCESS: 'everyone', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/^PORT: "eighty"/m);
      expect(problems).toMatch(/^WRITE_ACCESS: "everyone" .*any-user, groups, admins/m);
      expect(problems).toMatch(/^DATABASE_URL: /m);
      expect(problems).toMatch(/^LOG_LEVEL: "loud"/m);
    }
  });

  it('refuses an absolute session lifetime shorter than the idle timeout', () => {
    expect(() => loadConfig({ SESSION_IDLE_DAYS: '10', SESSION_MAX_DAYS: '5' })).toThrow(/SESSION_MAX_DAYS/);
  });

  it('reads the server timeouts and refuses a request timeout shorter than the header timeout', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersMs: 10_000,
      requestMs: 60_000,
      keepAliveMs: 10_000,
      idleMs: 60_000,
    });
    expect(
      loadConfig({ REQUEST_TIMEOUT_SECONDS: '0.5', HEADERS_TIMEOUT_SECONDS: '0.25' }).timeouts,
    ).toMatchObject({
      headersMs: 250,
      requestMs: 500,
    });
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' }).timeouts.requestMs).toBe(0);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '10' })).toThrow(
      /REQUEST_TIMEOUT_SECONDS: must not be shorter than HEADERS_TIMEOUT_SECONDS/,
    );
    expect(() => loadConfig({ HEADERS_TIMEOUT_SECONDS: '0' })).toThrow(/HEADERS_TIMEOUT_SECONDS: "0"/);
  });

  it('takes TRUST_PROXY as a hop count or a list of addresses and ranges, never "true"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example.org', '1.2.3.4/8/9', '99']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: .* is not valid \(expected a hop count/,
      );
    }
  });
});

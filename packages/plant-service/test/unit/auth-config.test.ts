/** Login configuration: OIDC, PUBLIC_URL and origins, roles, limits, the dev provider. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const OIDC = {
  OIDC_ISSUER: 'https://id.example.org/realms/plants',
  OIDC_CLIENT_ID: 'plants',
  PUBLIC_URL: 'https://plants.example.org',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('auth configuration', () => {
  it('has login off, PUBLIC_URL from HOST and PORT, and the documented defaults', () => {
    const { auth } = loadConfig({});
    expect(auth).toMatchObject({
      publicUrl: 'http://127.0.0.1:8080',
      secureCookies: false,
      corsOrigins: [],
      trustedOrigins: ['http://127.0.0.1:8080'],
      oidc: undefined,
      roles: { adminEmails: [], editorEmails: [], adminGroups: [], editorGroups: [], groupsClaim: 'groups' },
      rateLimit: { authPerMinute: 60, writesPerMinute: 300 },
      devIdp: { enabled: false, port: 8081 },
    });
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).auth.publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::' }).auth.publicUrl).toBe('http://[::1]:8080');
  });

  it('reads a complete OIDC setup', () => {
    const { auth } = loadConfig({
      ...OIDC,
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_SCOPES: ' openid  email profile groups ',
      CORS_ORIGINS: 'https://planner.example.net/, http://localhost:5173',
      ADMIN_EMAILS: 'Ana@Example.org, bo@example.org',
      EDITOR_EMAILS: 'Cy@example.org',
      OIDC_ADMIN_GROUPS: 'admins',
      OIDC_EDITOR_GROUPS: 'editors, gardeners',
      OIDC_GROUPS_CLAIM: 'realm_access.roles',
    });
    expect(auth.oidc).toEqual({
      issuer: 'https://id.example.org/realms/plants',
      clientId: 'plants',
      clientSecret: 's3cret',
      scopes: 'openid email profile groups',
      redirectUri: 'https://plants.example.org/auth/oidc/callback',
      allowHttp: false,
    });
    expect(auth.secureCookies).toBe(true);
    expect(auth.trustedOrigins).toEqual([
      'https://plants.example.org',
      'https://planner.example.net',
      'http://localhost:5173',
    ]);
    expect(auth.roles).toEqual({
      adminEmails: ['ana@example.org', 'bo@example.org'],
      editorEmails: ['cy@example.org'],
      adminGroups: ['admins'],
      editorGroups: ['editors', 'gardeners'],
      groupsClaim: 'realm_access.roles',
    });
  });

  it('accepts an http issuer only on loopback', () => {
    for (const issuer of ['http://127.0.0.1:8081', 'http://localhost:9000/oidc', 'http://[::1]:8081']) {
      expect(loadConfig({ ...OIDC, OIDC_ISSUER: issuer }).auth.oidc?.allowHttp).toBe(true);
    }
    for (const issuer of ['http://id.example.org', 'http://10.0.0.5', 'http://127.0.0.1.nip.io']) {
      expect(problems({ ...OIDC, OIDC_ISSUER: issuer })).toEqual([
        expect.stringMatching(/^OIDC_ISSUER: .* must be https/),
      ]);
    }
    expect(problems({ ...OIDC, OIDC_ISSUER: 'not a url' })).toEqual([expect.stringMatching(/is not a URL/)]);
  });

  it('names every missing or bad piece of an OIDC setup', () => {
    expect(problems({ OIDC_ISSUER: 'https://id.example.org', OIDC_SCOPES: 'email' })).toEqual([
      'OIDC_CLIENT_ID: is required when OIDC_ISSUER is set',
      expect.stringMatching(/^PUBLIC_URL: is required when OIDC_ISSUER is set/),
      'OIDC_SCOPES: "email" must include openid',
    ]);
    expect(problems({ OIDC_CLIENT_ID: 'x' })).toEqual([
      'OIDC_ISSUER: is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set',
    ]);
  });

  it('wants origins, not URLs with paths, in PUBLIC_URL and CORS_ORIGINS', () => {
    expect(problems({ PUBLIC_URL: 'https://example.org/plants' })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: .* is not an origin/),
    ]);
    expect(problems({ CORS_ORIGINS: 'https://ok.example, ftp://x.example, *' })).toHaveLength(2);
    expect(problems({ ADMIN_EMAILS: 'root' })).toEqual(['ADMIN_EMAILS: "root" is not an email']);
  });

  it('takes rate limits per minute, 0 for off', () => {
    const { auth } = loadConfig({ RATE_LIMIT_AUTH_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '1000' });
    expect(auth.rateLimit).toEqual({ authPerMinute: 0, writesPerMinute: 1000 });
    expect(problems({ RATE_LIMIT_WRITES_PER_MINUTE: '-1' })).toHaveLength(1);
  });

  it('refuses DEV_IDP with NODE_ENV=production, with OIDC_ISSUER, or with PORT=0', () => {
    expect(loadConfig({ DEV_IDP: 'true' }).auth.devIdp).toEqual({ enabled: true, port: 8081 });
    expect(problems({ DEV_IDP: 'true', NODE_ENV: 'production' })).toEqual([
      'DEV_IDP: refused when NODE_ENV=production',
    ]);
    expect(problems({ DEV_IDP: 'true', ...OIDC })).toEqual([
      expect.stringMatching(/^DEV_IDP: configures the provider itself/),
    ]);
    expect(problems({ DEV_IDP: 'true', PORT: '0' })).toEqual([
      expect.stringMatching(/^DEV_IDP: needs a fixed PORT/),
    ]);
  });
});

/** Login rules as pure functions: return_to, claims and roles, discovery backoff. */
import { backoffDelay } from '@plants/common/backoff';
import { describe, expect, it } from 'vitest';
import type { RoleRules } from '../../src/auth/auth-config.js';
import { needsUserinfo, readGroups, readProfile, rolesFor } from '../../src/auth/oidc/claims.js';
import { DISCOVERY_RETRY } from '../../src/auth/oidc/relying-party.js';
import { parseReturnTo } from '../../src/auth/oidc/return-to.js';
import { BadRequest } from '../../src/errors.js';

describe('parseReturnTo', () => {
  it('keeps a path with query and fragment, and defaults to /', () => {
    expect(parseReturnTo(undefined)).toBe('/');
    expect(parseReturnTo('')).toBe('/');
    expect(parseReturnTo('/api/docs')).toBe('/api/docs');
    expect(parseReturnTo('/api/v1/species?plant_layer=shrub#top')).toBe(
      '/api/v1/species?plant_layer=shrub#top',
    );
    expect(parseReturnTo('/a/../b')).toBe('/b');
  });

  it.each([
    'https://evil.example',
    'http:/evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/ok\\..\\x',
    'javascript:alert(1)',
    'data:text/html,x',
    'evil.example/path',
    '/tab\there',
    '/new\nline',
    '/auth/oidc/login',
    `/${'x'.repeat(2000)}`,
    // Dot segments and encodings that normalise into `//host`.
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/x/..//evil.example/path',
    '/././/evil.example',
    '/%2f%2fevil.example',
    '/%2F/evil.example',
    '/%5cevil.example',
    '/x/%5c%5cevil.example',
  ])('refuses %j', (value) => {
    expect(() => parseReturnTo(value)).toThrow(BadRequest);
  });
});

const rules: RoleRules = {
  adminEmails: ['boss@example.org'],
  editorEmails: ['writer@example.org'],
  adminGroups: ['admins'],
  editorGroups: ['editors'],
  groupsClaim: 'groups',
};

describe('claims', () => {
  it('reads the profile from the ID token first, then userinfo', () => {
    expect(
      readProfile({ email: 'a@x.org', email_verified: true, name: 'A' }, { name: 'B', nickname: 'b' }),
    ).toEqual({
      email: 'a@x.org',
      emailVerified: true,
      name: 'A',
      nickname: 'b',
    });
    expect(readProfile({}, { email: 'u@x.org', preferred_username: 'u' })).toEqual({
      email: 'u@x.org',
      emailVerified: false,
      name: null,
      nickname: 'u',
    });
    expect(readProfile({ email: 'not-an-email' }, {})).toBeUndefined();
  });

  it('takes email_verified from the same source as the email', () => {
    const profile = readProfile(
      { email: 'boss@example.org' },
      { email: 'other@x.org', email_verified: true },
    );
    expect(profile?.emailVerified).toBe(false);
  });

  it('asks userinfo only for what the ID token lacks', () => {
    const full = { email: 'a@x.org', name: 'A', nickname: 'a', groups: [] };
    expect(needsUserinfo(full, { groupsClaim: 'groups', wantGroups: true })).toBe(false);
    expect(needsUserinfo({ ...full, groups: undefined }, { groupsClaim: 'groups', wantGroups: true })).toBe(
      true,
    );
    expect(needsUserinfo({ ...full, groups: undefined }, { groupsClaim: 'groups', wantGroups: false })).toBe(
      false,
    );
    expect(needsUserinfo({ ...full, email: undefined }, { groupsClaim: 'groups', wantGroups: false })).toBe(
      true,
    );
  });

  it('reads groups as an array, a single string, by exact name or dotted path', () => {
    expect(readGroups('groups', { groups: ['a', 1, 'b'] })).toEqual(['a', 'b']);
    expect(readGroups('groups', {}, { groups: 'solo' })).toEqual(['solo']);
    expect(readGroups('realm_access.roles', { realm_access: { roles: ['r'] } })).toEqual(['r']);
    expect(readGroups('https://x.org/groups', { 'https://x.org/groups': ['u'] })).toEqual(['u']);
    expect(readGroups('groups', { groups: { nested: true } })).toEqual([]);
  });

  it('grants admin by verified email or group, and editor by group', () => {
    const profile = { email: 'Boss@Example.org', emailVerified: true, name: null, nickname: null };
    expect(rolesFor(profile, [], rules)).toEqual({ admin: true, editor: false });
    expect(rolesFor({ ...profile, emailVerified: false }, [], rules)).toEqual({
      admin: false,
      editor: false,
    });
    expect(rolesFor({ ...profile, email: 'x@y.org' }, ['admins'], rules).admin).toBe(true);
    expect(rolesFor({ ...profile, email: 'x@y.org' }, ['editors'], rules)).toEqual({
      admin: false,
      editor: true,
    });
  });

  it('makes a verified email in EDITOR_EMAILS an editor, case-insensitively', () => {
    const writer = { email: 'Writer@Example.org', emailVerified: true, name: null, nickname: null };
    expect(rolesFor(writer, [], rules)).toEqual({ admin: false, editor: true });
    expect(rolesFor({ ...writer, emailVerified: false }, [], rules)).toEqual({ admin: false, editor: false });
  });
});

describe('discovery backoff', () => {
  it('doubles from one second up to five minutes, with jitter of at most 20%', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, DISCOVERY_RETRY, mid))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(30, DISCOVERY_RETRY, mid)).toBe(300_000);
    expect(backoffDelay(1, DISCOVERY_RETRY, () => 0)).toBe(1000);
    expect(backoffDelay(1, DISCOVERY_RETRY, () => 1)).toBe(1200);
  });
});

import { describe, expect, it } from 'vitest';
import { grants, matchesNode } from '../../src/web-server/permissions.js';

describe('permission nodes with wildcards', () => {
  it.each([
    ['npc.web.move', 'npc.web.move', true],
    ['npc.web.move', 'npc.web.chat', false],
    ['npc.web.*', 'npc.web.move', true],
    ['npc.web.*', 'npc.web', false],
    ['npc.*', 'npc.web.move', true],
    ['*', 'npc.web.move', true],
    ['*.web.move', 'npc.web.move', true],
    ['*.web.move', 'npc.web.chat', false],
    ['other.web.*', 'npc.web.move', false],
    ['npc.web', 'npc.web.move', false],
    ['npc.web.move.extra', 'npc.web.move', false],
  ])('%s grants %s: %s', (pattern, node, expected) => {
    expect(matchesNode(pattern, node)).toBe(expected);
  });

  it('grants when any pattern matches', () => {
    expect(grants(['npc.web.status', 'npc.web.world'], 'npc.web.world')).toBe(true);
    expect(grants([], 'npc.web.world')).toBe(false);
  });
});

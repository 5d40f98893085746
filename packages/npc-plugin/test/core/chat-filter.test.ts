import { describe, expect, it } from 'vitest';
import { judgeChat } from '../../src/core/conversation/chat-filter.js';
import type { ChatEvent } from '../../src/core/game.js';

const options = { ownName: 'Npc', radius: 16, ignoredPlayers: ['EchoBot'] };
const said = (over: Partial<ChatEvent>): ChatEvent => ({
  username: 'Alice',
  message: 'hello',
  whisper: false,
  distance: 5,
  at: 0,
  ...over,
});

describe('judgeChat', () => {
  it('answers nearby chat and any whisper', () => {
    expect(judgeChat(said({}), options, [])).toEqual({ reply: true });
    expect(judgeChat(said({ whisper: true, distance: null }), options, [])).toEqual({ reply: true });
  });

  it('ignores chat beyond the radius or from players out of view', () => {
    expect(judgeChat(said({ distance: 16.5 }), options, [])).toEqual({
      reply: false,
      reason: 'out_of_range',
    });
    expect(judgeChat(said({ distance: null }), options, [])).toEqual({
      reply: false,
      reason: 'out_of_range',
    });
  });

  it('ignores itself, ignored players, commands and blank lines', () => {
    expect(judgeChat(said({ username: 'npc' }), options, [])).toMatchObject({ reason: 'self' });
    expect(judgeChat(said({ username: 'echobot' }), options, [])).toMatchObject({ reason: 'ignored' });
    expect(judgeChat(said({ message: '/help' }), options, [])).toMatchObject({ reason: 'command' });
    expect(judgeChat(said({ message: '   ' }), options, [])).toMatchObject({ reason: 'empty' });
  });

  it('breaks loops with bots that repeat what the NPC said', () => {
    expect(judgeChat(said({ message: 'Hello  THERE' }), options, ['hello there'])).toMatchObject({
      reason: 'echo',
    });
  });
});

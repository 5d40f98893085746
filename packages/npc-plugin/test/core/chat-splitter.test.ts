import { describe, expect, it } from 'vitest';
import { splitChat } from '../../src/core/chat-splitter.js';

describe('splitChat', () => {
  it('keeps short text as one line and collapses whitespace', () => {
    expect(splitChat('  hello \n  world ', 256)).toEqual(['hello world']);
  });

  it('splits at word boundaries within the limit', () => {
    const lines = splitChat('aaa bbb ccc ddd', 7);
    expect(lines).toEqual(['aaa bbb', 'ccc ddd']);
  });

  it('cuts a word longer than the limit', () => {
    expect(splitChat('x'.repeat(10), 4)).toEqual(['xxxx', 'xxxx', 'xx']);
  });

  it('never lets a line start with a slash (it would run a command)', () => {
    expect(splitChat('/op me', 256)).toEqual(['op me']);
    expect(splitChat('ok /kill', 5)).toEqual(['ok', 'kill']);
  });

  it('returns nothing for blank text', () => {
    expect(splitChat('   ', 256)).toEqual([]);
  });
});

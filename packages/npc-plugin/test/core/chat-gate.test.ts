import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeLine, splitChat } from '../../src/core/chat-splitter.js';
import { replyLines } from '../../src/core/chat-text.js';

const LIMIT = 256;

/** Characters that read as a slash or a backslash, or turn into one under NFKC. */
const SLASH_LIKE = [
  '/',
  '\\',
  '\u2044', // fraction slash
  '\u2215', // division slash
  '\u2216', // set minus
  '\u2571', // box drawings light diagonal
  '\u29f8', // big solidus
  '\u29f9', // big reverse solidus
  '\ufe68', // small reverse solidus
  '\uff0f', // fullwidth solidus
  '\uff3c', // fullwidth reverse solidus
  '\u0338', // combining long solidus overlay
];

/** The normalisations a server, a proxy or a chat plugin may apply before it looks for a command. */
const NORMALISATIONS: ((line: string) => string)[] = [
  (line) => line,
  (line) => line.normalize('NFKC'),
  (line) => line.normalize('NFKD'),
  (line) => line.normalize('NFC'),
  (line) => line.normalize('NFD'),
  javaTrim,
  (line) => line.replace(/\s+/g, ' ').trim(), // Apache normalizeSpace
  (line) => line.replace(/\p{Cf}/gu, '').trimStart(),
];

/** Java's String.trim: drops every character up to U+0020 at both ends. */
function javaTrim(line: string): string {
  let start = 0;
  while (start < line.length && line.charCodeAt(start) <= 0x20) start++;
  return line.slice(start);
}

/** What a vanilla server disconnects for (`isAllowedChatCharacter`), plus what the gate also refuses. */
function forbidden(char: string): boolean {
  const code = char.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xa7) return true;
  if (/\p{Cf}/u.test(char)) return true;
  return code >= 0xd800 && code <= 0xdfff; // a lone surrogate (pairs iterate as one code point)
}

function expectSafe(line: string): void {
  expect(line.length).toBeGreaterThan(0);
  expect(line.length).toBeLessThanOrEqual(LIMIT);
  expect(line).toBe(line.trim());
  expect([...line].filter(forbidden)).toEqual([]);
  for (const normalise of NORMALISATIONS) {
    const first = [...normalise(line).trimStart()][0] ?? '';
    expect(SLASH_LIKE.includes(first), `${JSON.stringify(line)} opens with ${JSON.stringify(first)}`).toBe(
      false,
    );
  }
  // The gate is idempotent: the outbox passing a line through it again changes nothing.
  expect(safeLine(line, LIMIT)).toBe(line);
}

/** Arbitrary text with the dangerous characters much more frequent than chance would make them. */
const hostile = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SLASH_LIKE, ' ', '\u00a0', '\u3000', '\n', '\t') },
    {
      weight: 2,
      arbitrary: fc.constantFrom('§', '\u0000', '\u001b', '\u007f', '\u0085', '\u200b', '\u202e', '\ufeff'),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('\ud83d', '\ude00', '😀', 'é', 'e\u0301', 'ﬁ', 'ｏｐ', '\u1100\u1161'),
    },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 4, arbitrary: fc.constantFrom('op', 'kick', 'Alice', 'a', ' /op', 'w'.repeat(40)) },
  ),
  maxLength: 700,
});

describe('the chat gate', () => {
  it('turns the known command tricks into chat', () => {
    expect(splitChat('/ /kick Alice bye', LIMIT)).toEqual(['kick Alice bye']);
    expect(splitChat('\\/op Mallory', LIMIT)).toEqual(['op Mallory']);
    expect(splitChat('\uff0fop Mallory', LIMIT)).toEqual(['op Mallory']);
    expect(splitChat('\u2215op \u2044op \u29f8op', LIMIT)).toEqual(['op ⁄op ⧸op']);
    expect(splitChat('\u200b/op', LIMIT)).toEqual(['op']);
    expect(splitChat('\u0338/op', LIMIT)).toEqual(['op']);
    expect(splitChat(`${'a'.repeat(255)} / /op Mallory`, LIMIT)).toEqual(['a'.repeat(255), 'op Mallory']);
  });

  it('removes what a vanilla server kicks for', () => {
    expect(splitChat('a § b\u0000c\u007fd\u0085e', LIMIT)).toEqual(['a bcde']);
    expect(splitChat('one\ntwo\tthree\r\nfour', LIMIT)).toEqual(['one two three four']);
    expect(splitChat('§§§', LIMIT)).toEqual([]);
  });

  it('never cuts a character in two', () => {
    const lines = splitChat('😀'.repeat(200), LIMIT);
    expect(lines.map((line) => line.length)).toEqual([256, 144]);
    expect(lines.join('')).toBe('😀'.repeat(200));
  });

  it('makes every line of POST /chat safe, for any text (splitChat)', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        for (const line of splitChat(text, LIMIT)) expectSafe(line);
      }),
      { numRuns: 500 },
    );
  });

  it('makes every line of a model reply safe, for any text (replyLines)', () => {
    fc.assert(
      fc.property(
        hostile,
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 20 }),
        (text, maxChars, maxLines) => {
          const lines = replyLines(text, { maxChars, maxLines, lineLimit: LIMIT });
          expect(lines.length).toBeLessThanOrEqual(maxLines);
          for (const line of lines) expectSafe(line);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('makes any single line safe or drops it (safeLine, the outbox check)', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const line = safeLine(text, LIMIT);
        if (line !== null) expectSafe(line);
      }),
      { numRuns: 500 },
    );
  });
});

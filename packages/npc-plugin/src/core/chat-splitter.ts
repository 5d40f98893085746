/**
 * The one gate for everything the NPC says in game chat. A line that leaves the NPC:
 * - never starts with a slash or anything that looks like one, after any normalisation a server or a
 *   chat plugin may apply (NFKC, trimming, collapsing whitespace): it would run as a command;
 * - holds no character a vanilla server disconnects for (`§`, C0 controls, DEL), nor C1 controls,
 *   invisible format characters (bidi overrides, zero-width marks) or unpaired surrogates;
 * - is not empty and fits the game's line limit (counted in UTF-16 units, as the game counts).
 */

/**
 * What vanilla's `isAllowedChatCharacter` rejects (`§`, below U+0020, DEL), plus the C1 controls
 * (invisible, and rejected by some proxies) and every format character (bidi overrides that make a
 * line read differently than it is, zero-width characters that hide text).
 */
// \p{Cc} is exactly C0, DEL and C1; \p{Cs} matches only unpaired surrogates here.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\u00a7]/gu;

/**
 * What may not open a line: whitespace, combining marks (they have nothing to combine with there),
 * and every slash and backslash look-alike. NFKC maps U+FF0F and U+FF3C to the ASCII ones, but the
 * division slash, fraction slash, big solidus and others survive it and read as a slash.
 */
const LEADING =
  /^[\s\p{M}/\\\u2044\u2215\u2216\u2571\u2572\u27cb\u27cd\u29f5\u29f8\u29f9\u2afb\u2afd\u3033\u3035\ufe68\uff0f\uff3c]+/u;

/** Normalises text the way the gate sees it: NFKC, forbidden characters out, whitespace collapsed. */
export function normaliseChat(text: string): string {
  return (
    text
      .normalize('NFKC')
      // Line breaks and tabs are controls too, but they separate words: they become spaces first.
      .replace(/\s+/g, ' ')
      .replace(FORBIDDEN, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Makes one line safe to send, or null when nothing sayable is left. Idempotent: a line it returns
 * comes back unchanged. This is the last step before every chat packet.
 */
export function safeLine(text: string, limit: number): string | null {
  let line = normaliseChat(text);
  // Stripping can expose a new opening character (a slash after a combining mark that NFKC just
  // composed away, say), so repeat until nothing changes.
  for (;;) {
    const next = normaliseChat(line.replace(LEADING, ''));
    if (next === line) break;
    line = next;
  }
  line = takeUnits(line, limit).trimEnd();
  return line === '' ? null : line;
}

/**
 * Splits text into chat lines of at most `limit` characters, at word boundaries where possible, and
 * passes each through `safeLine`.
 */
export function splitChat(text: string, limit: number): string[] {
  const words = normaliseChat(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (word === '') continue;
    const candidate = line === '' ? word : `${line} ${word}`;
    if (candidate.length <= limit) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (line.length > limit) {
      // A limit below one character's width drops that character rather than looping forever.
      const head = takeUnits(line, limit) || (line.codePointAt(0)! > 0xffff ? line.slice(0, 2) : line[0]!);
      if (head.length <= limit) lines.push(head);
      line = line.slice(head.length);
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((part) => safeLine(part, limit)).filter((part) => part !== null);
}

/** The longest prefix of at most `limit` UTF-16 units that does not cut a character in two. */
function takeUnits(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = 0;
  for (const char of text) {
    if (end + char.length > limit) break;
    end += char.length;
  }
  return text.slice(0, end);
}

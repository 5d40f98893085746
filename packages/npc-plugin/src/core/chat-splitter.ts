/**
 * Splits text into chat lines of at most `limit` characters, at word
 * boundaries where possible. No line may start with "/": the game would run it as a command.
 */
export function splitChat(text: string, limit: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
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
      lines.push(line.slice(0, limit));
      line = line.slice(limit);
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((part) => (part.startsWith('/') ? neutralise(part, limit) : part));
}

function neutralise(line: string, limit: number): string {
  const stripped = line.replace(/^\/+/, '').trim();
  return (stripped === '' ? '.' : stripped).slice(0, limit);
}

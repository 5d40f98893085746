/**
 * The benchmark's baseline: a bare node:http server answering GET <path> with a JSON body held in
 * memory (the same bodies the service returns), so the ratio measures what the service adds.
 * Usage: node baseline-server.ts <bodies.json> <port>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const bodies = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(file!, 'utf8')) as Record<string, string>).map(([p, b]) => [
    p,
    Buffer.from(b),
  ]),
);

createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

/**
 * The /img benchmark's baseline: a bare node:http server streaming one file from disk for every
 * request (Content-Type and Content-Length from one stat at start), so the ratio measures what
 * the service adds. Usage: node images-baseline-server.ts <file> <port>
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const size = statSync(file!).size;

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': size });
  createReadStream(file!).pipe(res);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

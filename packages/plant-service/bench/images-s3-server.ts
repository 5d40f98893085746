/**
 * s3rver in its own process for the /img benchmark (so the S3 server does not share the load
 * generator's event loop). Usage: node images-s3-server.ts <directory> <bucket>; sends its port.
 */
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: directory!,
  configureBuckets: [{ name: bucket!, configs: [] }],
});
const { port } = await server.run();
process.send?.({ port });
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});

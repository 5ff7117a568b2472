/**
 * s3rver behind its Signature V4 check (tests/support/s3-server.ts) in a process of its own, for
 * bench:load: the store's CPU is then measured apart from the load generator's. Prints one JSON line
 * (port, bucket, keys) when ready; stops on SIGTERM.
 */
import { frameCorsConfiguration } from '../../src/server/storage/frame-cors.ts';
import { startS3Server } from '../../tests/support/s3-server.ts';

const s3 = await startS3Server({ corsConfiguration: frameCorsConfiguration(process.argv[2] ?? 'http://{tenant}.localhost') });
const { endpoint, origin, bucket, region, accessKeyId, secretAccessKey } = s3;
console.info(JSON.stringify({ port: Number(new URL(endpoint).port), pid: process.pid, endpoint, origin, bucket, region, accessKeyId, secretAccessKey }));
process.once('SIGTERM', () => void s3.stop().then(() => process.exit(0)));

/**
 * Runs before the test suite (`npm test`): the integration tests need a real PostgreSQL and Redis,
 * the XML checks need xmllint and xmlsec1, the DANFE golden images pdftoppm and zbarimg, and the
 * /docs browser test Debian's chromium, the gateway's listen test `ss`. When one is missing this says so once, with how to get it,
 * instead of letting dozens of tests fail with connection errors.
 */
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';

const PG_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function postgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return `PostgreSQL at ${PG_URL} (${(err as Error).message}): start it, e.g. ` +
      "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` (trust auth, database `test`), or set TEST_PG_ADMIN_URL";
  } finally {
    await client.end().catch(() => {});
  }
}

async function redis(): Promise<string | null> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | null = null;
  client.on('error', (err: Error) => { cause ??= err; });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return `Redis at ${REDIS_URL} (${(cause ?? (err as Error)).message}): start it, e.g. ` +
      '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`, or set TEST_REDIS_URL';
  } finally {
    client.disconnect();
  }
}

function tool(name: string, debianPackage: string, purpose: string): string | null {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `${name} (${purpose}): \`apt-get install ${debianPackage}\``;
  }
}

/** The /docs browser test drives Debian's chromium with playwright-core (no browser download). */
function chromium(): string | null {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  try {
    execFileSync('test', ['-x', path], { stdio: 'ignore' });
    return null;
  } catch {
    return `chromium at ${path} (browser test of /docs): \`apt-get install chromium\`, or set CHROMIUM_PATH`;
  }
}

const XML_CHECKS = 'XSD and signature checks of generated XML';
const GOLDENS = 'DANFE golden images and barcode/QR decoding, test/lib/danfe/golden.test.ts';
const missing = (await Promise.all([postgres(), redis()]))
  .concat(tool('xmllint', 'libxml2-utils', XML_CHECKS), tool('xmlsec1', 'xmlsec1', XML_CHECKS), tool('pdftoppm', 'poppler-utils', GOLDENS), tool('zbarimg', 'zbar-tools', GOLDENS), chromium(),
    tool('ss', 'iproute2', "a listener's backlog as the kernel holds it, test/services/gateway/listen.test.ts"))
  .filter((m): m is string => m !== null);
if (missing.length) {
  console.error(`The tests cannot run: missing ${missing.length === 1 ? 'prerequisite' : 'prerequisites'}:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}

import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppConfig } from '../../../config.js';
import { TrustStores } from '../../../services/sefaz/trust.js';

test('a standalone simulator\'s CA: looked for until it exists, then read again at most once a second', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trust-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = { sefaz: { caFile: null, simulatorCaFile: null, simulatorDir: dir } } as unknown as AppConfig;
  const trust = new TrustStores(config, () => null);
  t.deepEqual(trust.simulatorCa(), [], 'no file yet');
  writeFileSync(join(dir, 'ca.pem'), 'first');
  t.deepEqual(trust.simulatorCa(), ['first'], 'a missing file is looked for again on the next call');
  writeFileSync(join(dir, 'ca.pem'), 'second');
  t.deepEqual(trust.simulatorCa(), ['first'], 'within the second: not read again');
  await sleep(1_100);
  t.deepEqual(trust.simulatorCa(), ['second'], 'a rewritten CA is seen after a second');
});

test('an embedded simulator\'s CA comes from it, never from a file', (t) => {
  const config = { sefaz: { caFile: null, simulatorCaFile: '/nonexistent/ca.pem', simulatorDir: '/nonexistent' } } as unknown as AppConfig;
  t.deepEqual(new TrustStores(config, () => ({ caPem: 'embedded' })).simulatorCa(), ['embedded']);
});

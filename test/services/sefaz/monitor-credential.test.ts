import test from 'ava';
import { inspect } from 'node:util';
import { loadConfig } from '../../../config.js';
import { startSefazStack, type SefazStack } from '../../support/sefaz-stack.js';
import { createA1, createCa } from '../../support/certificates.js';
import { testEnv } from '../../support/stack.js';

let s: SefazStack;
test.before(async () => { s = await startSefazStack(); });
test.after.always(async () => { await s?.stack.stop(); });
test.afterEach.always(async () => { await s.clearFaults(); });

const monitor = { uf: 'SP', model: '55', ambiente: 2, monitor: true } as const;

test.serial('status with the monitoring credential uses a sandbox certificate outside production and reaches the simulator', async (t) => {
  t.like(await s.call('v1.sefaz.status', monitor), { kind: 'up', cStat: 107, xMotivo: 'Serviço em Operação' });
  await s.fault({ mode: 'down', uf: 'SP', cStat: 109 });
  t.like(await s.call('v1.sefaz.status', monitor), { kind: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão' });
});

test.serial('status refuses issuerId and monitor together', async (t) => {
  await t.throwsAsync(s.call('v1.sefaz.status', { ...monitor, issuerId: 'iss-1' }), { message: /issuerId or monitor/ });
});

test('the monitoring certificate and its password never appear in JSON or inspect output of the config', (t) => {
  const a1 = createA1(createCa(), { cnpj: '11222333000181', password: 'senha-monitor-secreta' });
  const config = loadConfig(testEnv({ MONITOR_CERT_BASE64: a1.pfxBase64, MONITOR_CERT_PASSWORD: a1.password }));
  t.is(config.monitor.certificate!.password.reveal(), 'senha-monitor-secreta');
  for (const text of [JSON.stringify(config), inspect(config, { depth: 10 })]) {
    t.false(text.includes('senha-monitor-secreta'));
    t.false(text.includes(a1.pfxBase64.slice(0, 40)));
    t.true(text.includes('[redacted]'));
  }
});

test('the monitor is off by default in production without its certificate, and refused when forced on', (t) => {
  const prod = { NODE_ENV: 'production' };
  t.false(loadConfig(testEnv({ ...prod, MONITOR_ENABLED: '' })).monitor.enabled);
  t.deepEqual(loadConfig(testEnv({ ...prod, MONITOR_ENABLED: '0' })).monitor.ambientes, [1]);
  t.throws(() => loadConfig(testEnv({ ...prod, MONITOR_ENABLED: '1' })), { message: /requires MONITOR_CERT_FILE/ });
  const dev = loadConfig(testEnv({ MONITOR_ENABLED: '' }));
  t.like(dev.monitor, { enabled: true, intervalMs: 300_000, ambientes: [2], model: '55', certificate: null });
  t.deepEqual(loadConfig(testEnv({ MONITOR_AMBIENTES: 'producao,homologacao' })).monitor.ambientes, [1, 2]);
  t.throws(() => loadConfig(testEnv({ MONITOR_AMBIENTES: 'prod' })), { message: /producao or homologacao/ });
});

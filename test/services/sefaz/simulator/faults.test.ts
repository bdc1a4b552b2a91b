import test from 'ava';
import { FaultBoard, parseFaultSpec } from '../../../../services/sefaz/simulator/faults.js';

test('parseFaultSpec accepts the documented shape and refuses bad values', (t) => {
  t.deepEqual(parseFaultSpec({ mode: 'down', uf: 'SP', cStat: 109 }), { mode: 'down', uf: 'SP', cStat: 109 });
  t.throws(() => parseFaultSpec({ mode: 'down', cStat: 107 }), { message: /cStat must be 108 or 109/ });
  t.throws(() => parseFaultSpec({ mode: 'slow', delayMs: -1 }), { message: /delayMs/ });
  t.throws(() => parseFaultSpec({ mode: 'nope' }), { message: /mode must be one of/ });
  t.throws(() => parseFaultSpec(null), { message: /object/ });
});

test('FaultBoard matches by UF and service and clears a fault after its uses', (t) => {
  const b = new FaultBoard();
  b.add({ mode: 'drop-after-processing', uf: 'SP', service: 'NFeAutorizacao4', times: 1 });
  t.is(b.take('drop-after-processing', 'MG', 'NFeAutorizacao4'), null);
  t.is(b.take('drop-after-processing', 'SP', 'NFeConsultaProtocolo4'), null);
  t.truthy(b.take('drop-after-processing', 'SP', 'NFeAutorizacao4'));
  t.is(b.take('drop-after-processing', 'SP', 'NFeAutorizacao4'), null);
  t.deepEqual(b.list(), []);
});

test('FaultBoard tls-flaky aborts every n-th handshake; clear by UF keeps the others', (t) => {
  const b = new FaultBoard();
  b.add({ mode: 'tls-flaky', every: 3 });
  t.deepEqual([1, 2, 3, 4, 5, 6].map(() => b.abortHandshake()), [false, false, true, false, false, true]);
  b.add({ mode: 'down', uf: 'SP' });
  t.is(b.clear({ uf: 'SP' }), 1);
  t.is(b.list().length, 1);
  t.is(b.clear(), 1);
});

test('faults from configuration (SIMULATOR_FAULTS) are active when the simulator is created', async (t) => {
  const { loadConfig } = await import('../../../../config.js');
  const { testEnv } = await import('../../../support/stack.js');
  const { SefazSimulator } = await import('../../../../services/sefaz/simulator/server.js');
  const config = loadConfig(testEnv({ SIMULATOR_FAULTS: '[{"mode":"down","uf":"BA","cStat":109}]' }));
  const sim = new SefazSimulator({ knex: {} as any, pki: {} as any, faults: config.sefaz.simulatorFaults.map(parseFaultSpec) });
  t.like(sim.faults.list()[0], { mode: 'down', uf: 'BA', cStat: 109 });
});

test('a fault of a UF reaches a message sent to the UF-less alias by the cUF the message carries, and only its UF', async (t) => {
  const { startConformanceSim, envelope12, consStat, resultOf, tag } = await import('../../../support/simulator-conformance.js');
  const c = await startConformanceSim();
  try {
    // The message's UF is read only when a fault is set (issue 18): this is that path.
    c.sim.faults.add(parseFaultSpec({ mode: 'down', uf: 'SP', service: 'NFeStatusServico4', cStat: 109 }));
    const status = async (cUF: string) => resultOf(await c.post('/ws/NFeStatusServico4.asmx', envelope12('NFeStatusServico4', consStat(cUF))), 'retConsStatServ').xml;
    const sp = await status('35');
    t.is(tag(sp, 'cStat'), '109');
    t.is(tag(sp, 'cUF'), '35');
    t.is(tag(await status('31'), 'cStat'), '107');
  } finally {
    await c.stop();
  }
});

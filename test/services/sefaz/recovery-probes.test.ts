import test from 'ava';
import { RecoveryProbes, type AuthorityObservation, type AuthorityRef, type Caller } from '../../../services/sefaz/recovery-probes.js';
import type { Target } from '../../../services/sefaz/target.js';
import type { StatusResult } from '../../../lib/sefaz/results.js';

/** RecoveryProbes with recording stand-ins: `open` is the circuit as the probe sees it. */
function probesWith(answers: StatusResult[]) {
  const state = { open: true, now: new Date('2026-11-25T12:00:00.000Z') };
  const seen = { opened: [] as AuthorityRef[], recovered: [] as AuthorityRef[], observed: [] as AuthorityObservation[], probes: [] as { target: Target; caller: Caller }[] };
  const probes = new RecoveryProbes({
    delayMs: 5,
    isOpen: () => state.open,
    async probe(target, caller) {
      seen.probes.push({ target, caller });
      const answer = answers.shift() ?? { kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' };
      if (answer.kind === 'up') { state.open = false; probes.changed('SP|55|2', 'recovered'); }
      return answer;
    },
    events: { circuitOpened: (r) => seen.opened.push(r), recovered: (r) => seen.recovered.push(r), observed: (o) => seen.observed.push(o) },
    now: () => state.now,
  });
  return { probes, state, seen };
}
const until = async (cond: () => boolean) => { for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5)); };
const up: StatusResult = { kind: 'up', cStat: 107, xMotivo: 'Serviço em Operação', checkedAt: '2026-11-25T09:00:00-03:00' };
const down: StatusResult = { kind: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', checkedAt: '2026-11-25T09:00:00-03:00' };

test('RecoveryProbes: an opened circuit is announced and probed every cooldown, as the last issuer, until a 107 closes it', async (t) => {
  const { probes, seen, state } = probesWith([down, down, up]);
  probes.remember({ uf: 'SP', model: '55', ambiente: 2 }, { monitor: true });
  t.is(probes.remember({ uf: 'SP', model: '55', ambiente: 2, sandbox: true }, { issuerId: 'iss-1' }), 'SP|55|2');
  probes.remember({ uf: 'SP', model: '55', ambiente: 2 }, { monitor: true }); // the monitor does not displace the issuer
  probes.changed('SP|55|2', 'opened');
  t.deepEqual(seen.opened, [{ uf: 'SP', model: '55', ambiente: 2 }]);
  await until(() => !state.open);
  await new Promise((r) => setTimeout(r, 30));
  t.deepEqual(seen.probes, Array.from({ length: 3 }, () => ({ target: { uf: 'SP', model: '55', ambiente: 2, sandbox: true }, caller: { issuerId: 'iss-1', probe: true } })));
  t.deepEqual(seen.recovered, [{ uf: 'SP', model: '55', ambiente: 2 }]);
  probes.stop();
});

test('RecoveryProbes: the same observation of an authority is reported once per 5 seconds', (t) => {
  const { probes, seen, state } = probesWith([]);
  const sp = { uf: 'SP', model: '65', ambiente: 1 } as const;
  probes.observed('SP|65|1', sp, { cStat: 108, xMotivo: 'Paralisado' });
  probes.observed('SP|65|1', sp, { cStat: 108, xMotivo: 'Paralisado' });
  probes.observed('SP|65|1', sp, { cStat: 107, xMotivo: 'Em operação' });
  state.now = new Date(state.now.getTime() + 5_000);
  probes.observed('SP|65|1', sp, { cStat: 108, xMotivo: 'Paralisado' });
  t.deepEqual(seen.observed.map((o) => `${o.cStat} ${o.observedAt}`), ['108 2026-11-25T12:00:00.000Z', '107 2026-11-25T12:00:00.000Z', '108 2026-11-25T12:00:05.000Z']);
  t.like(seen.observed[0], { uf: 'SP', model: '65', ambiente: 1, xMotivo: 'Paralisado' });
});

test('RecoveryProbes: stopped, nothing is probed any more', async (t) => {
  const { probes, seen } = probesWith([]);
  probes.remember({ uf: 'MG', model: '55', ambiente: 1 }, { issuerId: 'iss-2' });
  probes.stop();
  probes.changed('MG|55|1', 'opened');
  await new Promise((r) => setTimeout(r, 30));
  t.is(seen.probes.length, 0);
});

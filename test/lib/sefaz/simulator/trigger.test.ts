import test from 'ava';
import { requestedRejection } from '../../../../lib/sefaz/simulator/trigger.js';
import { cstatText } from '../../../../lib/sefaz/cstat.js';

const textOf = (c: number) => { try { return cstatText(c); } catch { return null; } };

test('requestedRejection honours a rejection of the table in homologation only', (t) => {
  t.is(requestedRejection('pedido 12 SIMULAR_REJEICAO:778 fim', '2', textOf), 778);
  t.is(requestedRejection('SIMULAR_REJEICAO:778', '1', textOf), null, 'never in production');
  t.is(requestedRejection('SIMULAR_REJEICAO:100', '2', textOf), null, 'not a rejection');
  t.is(requestedRejection('SIMULAR_REJEICAO:123', '2', textOf), null, 'not in the table');
  t.is(requestedRejection(null, '2', textOf), null);
});

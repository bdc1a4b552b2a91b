import test from 'ava';
import { requestedRejection } from '../../../../lib/sefaz/simulator/trigger.js';
import { cstatText } from '../../../../lib/sefaz/cstat.js';

const textOf = (c: number) => { try { return cstatText(c); } catch { return null; } };

test('requestedRejection honours a rejection of the table in homologation only', (t) => {
  t.deepEqual(requestedRejection('pedido 12 SIMULAR_REJEICAO:778 fim', '2', textOf), { cStat: 778, xMotivo: 'Rejeição: Informado NCM inexistente' });
  t.is(requestedRejection('SIMULAR_REJEICAO:778', '1', textOf), null, 'never in production');
  t.is(requestedRejection('SIMULAR_REJEICAO:100', '2', textOf), null, 'not a rejection');
  t.is(requestedRejection('SIMULAR_REJEICAO:123', '2', textOf), null, 'not in the table');
  t.is(requestedRejection(null, '2', textOf), null);
});

test('requestedRejection fills the placeholders the request can fill, and ignores a code it cannot', (t) => {
  const key = '35261111222333000181550010000010001179190000';
  const fill = { nRec: '351000000000042', chNFe: key, nItem: '1' };
  t.deepEqual(requestedRejection('SIMULAR_REJEICAO:204', '2', textOf, fill), { cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e [nRec:351000000000042]' });
  t.deepEqual(requestedRejection('SIMULAR_REJEICAO:539', '2', textOf, fill), {
    cStat: 539, xMotivo: `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe:${key}][nRec:351000000000042]`,
  });
  t.deepEqual(requestedRejection('SIMULAR_REJEICAO:562', '2', textOf, fill), {
    cStat: 562, xMotivo: `Rejeição: Código Numérico informado na Chave de Acesso difere do Código Numérico da NF-e [chNFe:${key}]`,
  });
  t.deepEqual(requestedRejection('SIMULAR_REJEICAO:694', '2', textOf, fill), { cStat: 694, xMotivo: 'Rejeição: Não informado o grupo de ICMS para a UF de destino [nItem:1]' });
  for (const code of [204, 218, 539]) t.is(requestedRejection(`SIMULAR_REJEICAO:${code}`, '2', textOf), null, `${code} without a receipt to name`);
  t.is(requestedRejection('SIMULAR_REJEICAO:628', '2', textOf, fill), null, '[Limite] is never filled');
  t.is(requestedRejection('SIMULAR_REJEICAO:596', '2', textOf, fill), null, '[prazo vigente] is never filled');
});

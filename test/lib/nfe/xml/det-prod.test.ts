import test from 'ava';
import { buildProd, HOMOLOGACAO_XPROD_NFCE } from '../../../../lib/nfe/xml/det-prod.js';
import { anItem } from '../../../support/checked-note-factories.js';

test('buildProd formats quantity with 4 decimals and unit value up to 10, omitting zero freight', (t) => {
  const xml = buildProd(anItem({ quantidade: 3, valorUnitario: 0.1234567891, valorTotalCents: 37n }), '55', 1);
  t.true(xml.includes('<qCom>3.0000</qCom><vUnCom>0.1234567891</vUnCom><vProd>0.37</vProd>'));
  t.false(xml.includes('vFrete'));
});

test('buildProd writes the homologation description on the first NFC-e item only', (t) => {
  t.true(buildProd(anItem({ nItem: 1 }), '65', 2).includes(`<xProd>${HOMOLOGACAO_XPROD_NFCE}</xProd>`));
  t.false(buildProd(anItem({ nItem: 2 }), '65', 2).includes(HOMOLOGACAO_XPROD_NFCE));
  t.false(buildProd(anItem({ nItem: 1 }), '55', 2).includes(HOMOLOGACAO_XPROD_NFCE));
});

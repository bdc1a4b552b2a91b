import test from 'ava';
import { buildDet, buildImposto } from '../../../../lib/nfe/xml/det.js';
import { anItem } from '../../../support/checked-note-factories.js';

test('buildDet carries nItem as attribute and infAdProd after imposto', (t) => {
  t.regex(buildDet(anItem({ nItem: 7, informacoesAdicionais: 'Lote 5' }), '55', 1), /^<det nItem="7"><prod>.*<\/imposto><infAdProd>Lote 5<\/infAdProd><\/det>$/);
});

test('buildImposto writes the item approximate tax (vTotTrib) first, only when the note carries it', (t) => {
  const taxed = anItem({ approximateTax: { federal: 1300n, estadual: 1800n, municipal: 5n, total: 3105n } });
  t.regex(buildImposto(taxed), /^<imposto><vTotTrib>31\.05<\/vTotTrib><ICMS>/);
  t.notRegex(buildImposto(anItem()), /vTotTrib/);
});

import test from 'ava';
import { buildDet } from '../../../../lib/nfe/xml/det.js';
import { anItem } from '../../../support/checked-note-factories.js';

test('buildDet carries nItem as attribute and infAdProd after imposto', (t) => {
  t.regex(buildDet(anItem({ nItem: 7, informacoesAdicionais: 'Lote 5' }), '55', 1), /^<det nItem="7"><prod>.*<\/imposto><infAdProd>Lote 5<\/infAdProd><\/det>$/);
});

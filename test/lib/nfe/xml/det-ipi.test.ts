import test from 'ava';
import { buildIpi } from '../../../../lib/nfe/xml/det-ipi.js';

test('buildIpi writes IPITrib with the rate pair for a taxed CST', (t) => {
  t.is<string | undefined, string | undefined>(buildIpi({ cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 5, valor: 5 }), '<IPI><cEnq>999</cEnq><IPITrib><CST>50</CST><vBC>100.00</vBC><pIPI>5.00</pIPI><vIPI>5.00</vIPI></IPITrib></IPI>');
});

test('buildIpi writes IPITrib with the unit pair when taxed by quantity', (t) => {
  t.is<string | undefined, string | undefined>(buildIpi({ cst: '99', cEnq: '999', quantidadeUnidadeTributavel: 3, valorUnidadeTributavel: 0.75, valor: 2.25 }), '<IPI><cEnq>999</cEnq><IPITrib><CST>99</CST><qUnid>3.0000</qUnid><vUnid>0.7500</vUnid><vIPI>2.25</vIPI></IPITrib></IPI>');
});

test('buildIpi writes IPINT for untaxed CSTs', (t) => {
  for (const cst of ['01', '02', '03', '04', '05', '51', '52', '53', '54', '55']) t.is<string | undefined, string | undefined>(buildIpi({ cst, cEnq: '999' }), `<IPI><cEnq>999</cEnq><IPINT><CST>${cst}</CST></IPINT></IPI>`);
});

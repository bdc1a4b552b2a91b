import test from 'ava';
import { buildCofins, buildPis } from '../../../../lib/nfe/xml/det-pis-cofins.js';

test('buildPis picks Aliq, Qtde, NT or Outr by CST', (t) => {
  t.is<string | undefined, string | undefined>(buildPis({ cst: '01', baseCalculo: 100, aliquota: 1.65, valor: 1.65 }), '<PIS><PISAliq><CST>01</CST><vBC>100.00</vBC><pPIS>1.65</pPIS><vPIS>1.65</vPIS></PISAliq></PIS>');
  t.is<string | undefined, string | undefined>(buildPis({ cst: '03', quantidadeVendida: 10, valorAliquotaUnidade: 0.0861, valor: 0.86 }), '<PIS><PISQtde><CST>03</CST><qBCProd>10.0000</qBCProd><vAliqProd>0.0861</vAliqProd><vPIS>0.86</vPIS></PISQtde></PIS>');
  t.is<string | undefined, string | undefined>(buildPis({ cst: '06' }), '<PIS><PISNT><CST>06</CST></PISNT></PIS>');
  t.is<string | undefined, string | undefined>(buildPis({ cst: '99', baseCalculo: 10, aliquota: 0.65, valor: 0.07 }), '<PIS><PISOutr><CST>99</CST><vBC>10.00</vBC><pPIS>0.65</pPIS><vPIS>0.07</vPIS></PISOutr></PIS>');
});

test('buildCofins mirrors PIS with COFINS tag names', (t) => {
  t.is<string | undefined, string | undefined>(buildCofins({ cst: '02', baseCalculo: 100, aliquota: 7.6, valor: 7.6 }), '<COFINS><COFINSAliq><CST>02</CST><vBC>100.00</vBC><pCOFINS>7.60</pCOFINS><vCOFINS>7.60</vCOFINS></COFINSAliq></COFINS>');
  t.is<string | undefined, string | undefined>(buildCofins({ cst: '49', quantidadeVendida: 2, valorAliquotaUnidade: 0.5, valor: 1 }), '<COFINS><COFINSOutr><CST>49</CST><qBCProd>2.0000</qBCProd><vAliqProd>0.5000</vAliqProd><vCOFINS>1.00</vCOFINS></COFINSOutr></COFINS>');
});

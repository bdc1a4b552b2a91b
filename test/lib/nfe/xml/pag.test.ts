import test from 'ava';
import { buildPag } from '../../../../lib/nfe/xml/pag.js';

test('buildPag writes card data and vTroco only when there is change', (t) => {
  t.is<string | undefined, string | undefined>(buildPag([{ forma: '01', valor: 10 }], 0), '<pag><detPag><tPag>01</tPag><vPag>10.00</vPag></detPag></pag>');
  t.is<string | undefined, string | undefined>(buildPag([{ forma: '03', valor: 50, indPag: 0, cartao: { tpIntegra: 1, cnpjInstituicao: '01027058000191', bandeira: '02', autorizacao: 'XYZ' } }], 2.5),
    '<pag><detPag><indPag>0</indPag><tPag>03</tPag><vPag>50.00</vPag><card><tpIntegra>1</tpIntegra><CNPJ>01027058000191</CNPJ><tBand>02</tBand><cAut>XYZ</cAut></card></detPag><vTroco>2.50</vTroco></pag>');
});

import test from 'ava';
import { buildIcms, GROUP_BY_CSOSN, GROUP_BY_CST, ICMS_GROUPS } from '../../../../lib/nfe/xml/det-icms.js';

test('buildIcms writes ICMS00 in XSD order with modBC defaulting to 3 and classic names mapped', (t) => {
  t.is<string | undefined, string | undefined>(buildIcms({ origem: 0, cst: '00', baseCalculo: 100, aliquota: 18, valor: 18 }),
    '<ICMS><ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>100.00</vBC><pICMS>18.00</pICMS><vICMS>18.00</vICMS></ICMS00></ICMS>');
});

test('buildIcms writes the FCP sequence only when the item carries it', (t) => {
  t.true(buildIcms({ origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18, pFCP: 2, vFCP: 2 }).includes('<vICMS>18.00</vICMS><pFCP>2.00</pFCP><vFCP>2.00</vFCP></ICMS00>'));
});

test('buildIcms ICMS10 keeps own tax, FCP, ST and FCP-ST in layout order', (t) => {
  const xml = buildIcms({ origem: 1, cst: '10', modBC: 3, vBC: 100, pICMS: 18, vICMS: 18, vBCFCP: 100, pFCP: 2, vFCP: 2, modBCST: 4, pMVAST: 40, vBCST: 140, pICMSST: 18, vICMSST: 7.2, vBCFCPST: 140, pFCPST: 2, vFCPST: 2.8 });
  const tags = [...xml.matchAll(/<(\w+)>/g)].map((m) => m[1]);
  t.deepEqual(tags, ['ICMS', 'ICMS10', 'orig', 'CST', 'modBC', 'vBC', 'pICMS', 'vICMS', 'vBCFCP', 'pFCP', 'vFCP', 'modBCST', 'pMVAST', 'vBCST', 'pICMSST', 'vICMSST', 'vBCFCPST', 'pFCPST', 'vFCPST']);
});

test('buildIcms maps several codes to one group (40/41/50 → ICMS40, CSOSN 102/103/300/400 → ICMSSN102)', (t) => {
  for (const cst of ['40', '41', '50']) t.true(buildIcms({ origem: 0, cst }).startsWith(`<ICMS><ICMS40><orig>0</orig><CST>${cst}</CST>`));
  for (const csosn of ['102', '103', '300', '400']) t.is<string | undefined, string | undefined>(buildIcms({ origem: 2, csosn }), `<ICMS><ICMSSN102><orig>2</orig><CSOSN>${csosn}</CSOSN></ICMSSN102></ICMS>`);
});

test('buildIcms CSOSN 101 reads the classic names as the SN credit', (t) => {
  t.is<string | undefined, string | undefined>(buildIcms({ origem: 0, csosn: '101', aliquota: 1.25, valor: 0.26 }), '<ICMS><ICMSSN101><orig>0</orig><CSOSN>101</CSOSN><pCredSN>1.25</pCredSN><vCredICMSSN>0.26</vCredICMSSN></ICMSSN101></ICMS>');
});

test('buildIcms monofasic CST 02 and 61 write quantity with 4 decimals and ad rem rate', (t) => {
  t.is<string | undefined, string | undefined>(buildIcms({ origem: 0, cst: '02', qBCMono: 100, adRemICMS: 1.4700, vICMSMono: 147 }), '<ICMS><ICMS02><orig>0</orig><CST>02</CST><qBCMono>100.0000</qBCMono><adRemICMS>1.47</adRemICMS><vICMSMono>147.00</vICMSMono></ICMS02></ICMS>');
  t.true(buildIcms({ origem: 0, cst: '61', qBCMonoRet: 50.5, adRemICMSRet: 1.2345, vICMSMonoRet: 62.34 }).includes('<qBCMonoRet>50.5000</qBCMonoRet><adRemICMSRet>1.2345</adRemICMSRet>'));
});

test('buildIcms refuses a code the table does not carry', (t) => {
  t.throws(() => buildIcms({ origem: 0, cst: '15' }), { instanceOf: RangeError });
  t.throws(() => buildIcms({ origem: 0, csosn: '999' }), { instanceOf: RangeError });
});

test('the ICMS table covers every supported CST and CSOSN', (t) => {
  t.deepEqual(Object.keys(GROUP_BY_CST).sort(), ['00', '02', '10', '20', '30', '40', '41', '50', '51', '60', '61', '70', '90']);
  t.deepEqual(Object.keys(GROUP_BY_CSOSN).sort(), ['101', '102', '103', '201', '202', '203', '300', '400', '500', '900']);
  for (const g of [...Object.values(GROUP_BY_CST), ...Object.values(GROUP_BY_CSOSN)]) t.truthy(ICMS_GROUPS[g]);
});

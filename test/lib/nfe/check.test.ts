import test from 'ava';
import { checkNfce, checkNfe } from '../../../lib/nfe/check.js';
import { computeTotals } from '../../../lib/nfe/totals.js';
import { validateNfceBody, validateNfeBody } from '../../../lib/nfe/validate.js';
import { aSimplesIssuer, aSimplesItem, aValidNfceBody, aValidNfeBody, anAccessKey, anIssuer, anItem } from '../../support/nfe-factories.js';
import { throwsCode } from '../../support/domain-errors.js';

test('checkNfe accepts the default factory note (CRT 3, CST 00) after validation', (t) => {
  const note = checkNfe(validateNfeBody(aValidNfeBody()), anIssuer());
  t.is(note.model, '55');
  t.is(note.idDest, 1);
  t.is(note.indFinal, 1);
  t.deepEqual(note.transporte, { modFrete: 9 });
  t.deepEqual(note.referenciadas, []);
  t.deepEqual(note.processosReferenciados, []);
  const [item] = note.items;
  t.is(item!.nItem, 1);
  t.is(item!.valorTotalCents, 10000n);
  t.is(item!.unidadeTributavel, 'UN');
  t.is(item!.quantidadeTributavel, 2);
  t.is(item!.valorUnitarioTributavel, 50);
  t.is(item!.eanTributavel, 'SEM GTIN');
  t.is(computeTotals(note).vNF, 10000n);
});

test('checkNfe accepts the Simples factory note (crt 1, CSOSN 102)', (t) => {
  const note = checkNfe(validateNfeBody(aValidNfeBody({ items: [aSimplesItem()] })), aSimplesIssuer());
  t.is(note.items[0]!.icms.csosn, '102');
});

test('checkNfe derives idDest 2 from an interstate CFOP and keeps an explicit idDest', (t) => {
  const interstate = aValidNfeBody({ items: [anItem({ cfop: '6102', icms: { origem: 0, cst: '00', vBC: 100, pICMS: 12, vICMS: 12 } })] });
  t.is(checkNfe(interstate, anIssuer()).idDest, 2);
  t.is(checkNfe({ ...interstate, idDest: 1 }, anIssuer()).idDest, 1);
});

test('checkNfe defaults indFinal to 0 for a contributor CNPJ recipient', (t) => {
  const body = aValidNfeBody();
  body.destinatario = { ...body.destinatario, cnpjCpf: '11444777000161', indicadorIE: 1, ie: '110042490114' };
  t.is(checkNfe(body, anIssuer()).indFinal, 0);
});

test('checkNfe keeps a sent valorTotal within one cent and refuses a farther one', (t) => {
  const ok = checkNfe(aValidNfeBody({ items: [anItem({ quantidade: 3, valorUnitario: 33.3333, valorTotal: 100, icms: { origem: 0, cst: '40' } })] }), anIssuer());
  t.is(ok.items[0]!.valorTotalCents, 10000n);
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ valorTotal: 100.02 })] }), anIssuer()), 'VALOR_TOTAL_ITEM_DIVERGENTE');
  t.like(err.data, { item: 0, esperado: '100.00', recebido: '100.02' });
});

test('checkNfe rounds quantity × unit value half up to cents', (t) => {
  const note = checkNfe(aValidNfeBody({
    items: [anItem({ quantidade: 1, valorUnitario: 10.005, icms: { origem: 0, cst: '40' } })],
    pagamentos: [{ forma: '01', valor: 10.01 }],
  }), anIssuer());
  t.is(note.items[0]!.valorTotalCents, 1001n);
});

test('checkNfe refuses payments that do not close on the total (PAGAMENTO_DIVERGENTE_DO_TOTAL)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ pagamentos: [{ forma: '01', valor: 99.99 }] }), anIssuer()), 'PAGAMENTO_DIVERGENTE_DO_TOTAL');
  t.deepEqual(err.data, { totalNota: '100.00', totalPagamentos: '99.99', troco: '0.00', diferenca: '-0.01' });
});

test('checkNfe accepts payments minus troco equal to the total', (t) => {
  t.notThrows(() => checkNfe(aValidNfeBody({ pagamentos: [{ forma: '01', valor: 150 }], troco: 50 }), anIssuer()));
  t.notThrows(() => checkNfe(aValidNfeBody({ pagamentos: [{ forma: '01', valor: 60 }, { forma: '17', valor: 40 }] }), anIssuer()));
});

test('checkNfe runs the self-reference check when the own key is given', (t) => {
  const key = anAccessKey();
  const body = aValidNfeBody({ finNFe: 2, referenciadas: [{ chaveAcesso: key }] });
  t.notThrows(() => checkNfe(body, anIssuer()));
  const err = throwsCode(t, () => checkNfe(body, anIssuer(), { ownAccessKey: key }), 'REFERENCIADA_INVALIDA');
  t.like(err.data, { indice: 0 });
});

test('checkNfe fills the IBS/CBS defaults of the item', (t) => {
  const note = checkNfe(aValidNfeBody({
    items: [anItem({ desconto: 10, valorFrete: 5, ibsCbs: { cst: '000', cClassTrib: '000001', ibsUf: { p: 0.1 }, ibsMun: { p: 0 }, cbs: { p: 0.9 } } })],
    pagamentos: [{ forma: '01', valor: 95 }],
  }), anIssuer());
  const r = note.items[0]!.ibsCbsResolved!;
  t.is(r.vBC, 9500n);
  t.deepEqual(r.ibsUf, { p: '0.1000', v: 10n });
  t.deepEqual(r.cbs, { p: '0.9000', v: 86n });
  t.is(r.vIbs, 10n);
  t.like(computeTotals(note).ibsCbs, { vBCIBSCBS: 9500n, vIBSUF: 10n, vIBSMun: 0n, vIBS: 10n, vCBS: 86n });
});

test('checkNfce produces an internal final-consumer note with the consumer default name', (t) => {
  const note = checkNfce(validateNfceBody(aValidNfceBody({ destCPF: '52998224725' })), anIssuer());
  t.is(note.model, '65');
  t.is(note.idDest, 1);
  t.is(note.indFinal, 1);
  t.deepEqual(note.destinatario, { cnpjCpf: '52998224725', nome: 'CONSUMIDOR FINAL', indicadorIE: 9 });
  t.deepEqual(note.transporte, { modFrete: 9 });
  t.is(note.contingencia?.requested, undefined);
});

test('checkNfce keeps destNome when sent and leaves an anonymous sale without destinatario', (t) => {
  t.like(checkNfce(aValidNfceBody({ destCPF: '52998224725', destNome: 'Joao' }), anIssuer()).destinatario, { nome: 'Joao' });
  t.is(checkNfce(aValidNfceBody(), anIssuer()).destinatario, undefined);
});

test('a malformed referenced key passes the schema and refuses 422 REFERENCIADA_INVALIDA, not 400', (t) => {
  const body = validateNfeBody(aValidNfeBody({ finNFe: 2, referenciadas: [{ chaveAcesso: '123' }] }));
  const err = throwsCode(t, () => checkNfe(body, anIssuer()), 'REFERENCIADA_INVALIDA');
  t.is(err.code, 422);
});

test('the old ST names pass the schema and refuse 422 ICMS_ST_NAO_SUPORTADO', (t) => {
  const item: any = anItem();
  item.icms = { ...item.icms, baseCalculoST: 10 };
  const err = throwsCode(t, () => checkNfe(validateNfeBody(aValidNfeBody({ items: [item] })), anIssuer()), 'ICMS_ST_NAO_SUPORTADO');
  t.is(err.code, 422);
});

test('a justification shorter than 15 passes the schema and refuses 422 in NFC-e', (t) => {
  const body = validateNfceBody(aValidNfceBody({ justificativaContingencia: 'curta' }));
  throwsCode(t, () => checkNfce(body, anIssuer()), 'JUSTIFICATIVA_CONTINGENCIA_INVALIDA');
});

test('checkNfe defaults indIntermed to 0 for remote presences and omits it in person', (t) => {
  t.is(checkNfe(aValidNfeBody({ indPres: 2 }), anIssuer()).indIntermed, 0);
  t.is(checkNfe(aValidNfeBody({ indPres: 9, indIntermed: 1 }), anIssuer()).indIntermed, 1);
  t.false('indIntermed' in checkNfe(aValidNfeBody({ indPres: 1 }), anIssuer()));
  t.is(checkNfce(aValidNfceBody({ indPres: 4 }), anIssuer()).indIntermed, 0);
});

test('checkNfe treats null properties as absent and does not mutate its input', (t) => {
  const body: any = aValidNfeBody({ items: [anItem({ icms: { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18 } })] });
  body.troco = null;
  body.items[0].desconto = null;
  const before = JSON.stringify(body);
  const note = checkNfe(body, anIssuer());
  t.false('troco' in note);
  t.false('desconto' in note.items[0]!);
  t.is(note.items[0]!.icms.modBC, 3);
  t.is(JSON.stringify(body), before);
});

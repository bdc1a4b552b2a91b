import test from 'ava';
import { DomainError } from '../../../lib/errors/index.js';
import { validateBatchBody, validateNfceBody, validateNfeBody } from '../../../lib/nfe/validate.js';
import { aValidNfceBody, aValidNfeBody, anItem } from '../../support/nfe-factories.js';

function fails(t: any, fn: () => unknown): DomainError {
  const error = t.throws(fn, { instanceOf: DomainError }) as DomainError;
  t.is(error.type, 'VALIDATION_ERROR');
  t.is(error.code, 400);
  return error;
}
const fieldsOf = (e: DomainError) => (e.data!.errors as { field: string }[]).map((x) => x.field);
const withItem = (item: Record<string, unknown>) => ({ ...aValidNfeBody(), items: [{ ...anItem(), ...item }] });

test('validateNfeBody applies the spec defaults to a minimal body without mutating it', (t) => {
  const minimal: any = aValidNfeBody();
  for (const k of ['naturezaOperacao', 'tpNF', 'indPres', 'finNFe']) delete minimal[k];
  delete minimal.destinatario.indicadorIE;
  delete minimal.items[0].ean;
  delete minimal.items[0].indTot;
  minimal.items[0].ipi = { cst: '53' };
  minimal.items[0].ibsCbs = { ibsUf: { p: 0.1 }, ibsMun: { p: 0 }, cbs: { p: 0.9 } };
  const before = JSON.stringify(minimal);
  const body = validateNfeBody(minimal);
  t.is(JSON.stringify(minimal), before);
  t.like(body, { naturezaOperacao: 'Venda de Mercadoria', tpNF: 1, indPres: 1, finNFe: 1, destinatario: { indicadorIE: 9 } });
  t.like(body.items[0], { ean: 'SEM GTIN', indTot: 1, ipi: { cst: '53', cEnq: '999' }, ibsCbs: { cst: '000', cClassTrib: '000001' } });
  t.is(body.transporte, undefined);
});

test('validateNfeBody refuses an unknown key with the whole unknown-field envelope and the layout motivo', (t) => {
  const body: any = withItem({});
  body.items[0].icms.vBCSTRet = 10;
  body.itens = [];
  const error = fails(t, () => validateNfeBody(body));
  const icmsAccepted = 'origem, cst, csosn, aliquota, baseCalculo, valor, modBC, pRedBC, vBC, pICMS, vICMS, vBCFCP, pFCP, vFCP, modBCST, pMVAST, pRedBCST, vBCST, pICMSST, vICMSST, vBCFCPST, pFCPST, vFCPST, qBCMono, adRemICMS, vICMSMono, qBCMonoRet, adRemICMSRet, vICMSMonoRet, indDeduzDeson, motDesICMS, vICMSDeson, pCredSN, vCredICMSSN, baseCalculoST, aliquotaST, valorST';
  const rootAccepted = 'issuerId, serie, numero, items, pagamentos, troco, cobranca, informacoesComplementares, informacoesFisco, processosReferenciados, resolverTributacao, naturezaOperacao, tpNF, idDest, indFinal, indPres, indIntermed, finNFe, referenciadas, destinatario, transporte, dataSaidaEntrada';
  const retido = 'Grupo/campo do leiaute não suportado por esta API: ICMS ST retido anteriormente (vBCSTRet).';
  const itens = "No leiaute existe com outro nome: nesta API use 'items'.";
  t.deepEqual(error.data, {
    errors: [
      { field: 'items[0].icms.vBCSTRet', message: `Campo desconhecido 'vBCSTRet' em 'items[0].icms'. Campos aceitos: ${icmsAccepted}. ${retido}` },
      { field: 'itens', message: `Campo desconhecido 'itens'. Campos aceitos: ${rootAccepted}. ${itens}` },
    ],
    details: {
      camposDesconhecidos: [
        { campo: 'vBCSTRet', caminho: 'items[0].icms.vBCSTRet', objeto: 'items[0].icms', motivo: retido },
        { campo: 'itens', caminho: 'itens', objeto: '', motivo: itens },
      ],
    },
  });
});

test('validateNfeBody refuses toString/valueOf keys as unknown fields even where the validator would print them (no TypeError)', (t) => {
  // fastest-validator formats `actual` with Array#join, which calls the key's value as a function.
  const body: any = { ...aValidNfeBody(), naturezaOperacao: [{ toString: false }], pagamentos: [{ forma: '01', valor: 100, valueOf: 1 }] };
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual(error.data, {
    errors: [
      { field: 'naturezaOperacao[0].toString', message: "Campo desconhecido 'toString' em 'naturezaOperacao[0]'." },
      { field: 'pagamentos[0].valueOf', message: "Campo desconhecido 'valueOf' em 'pagamentos[0]'." },
    ],
    details: {
      camposDesconhecidos: [
        { campo: 'toString', caminho: 'naturezaOperacao[0].toString', objeto: 'naturezaOperacao[0]' },
        { campo: 'valueOf', caminho: 'pagamentos[0].valueOf', objeto: 'pagamentos[0]' },
      ],
    },
  });
  fails(t, () => validateNfeBody([{ toString: false }]));
  fails(t, () => validateNfceBody({ items: [[{ valueOf: [] }]] }));
});

test('validateNfeBody reports an unknown key without layout meaning without motivo', (t) => {
  const body: any = aValidNfeBody();
  body.destinatario.endereco.foo = 'x';
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual((error.data!.details as any).camposDesconhecidos, [
    { campo: 'foo', caminho: 'destinatario.endereco.foo', objeto: 'destinatario.endereco' },
  ]);
});

test('validateNfeBody points NFref and refNFe to referenciadas[].chaveAcesso', (t) => {
  const body: any = { ...aValidNfeBody(), NFref: [{ refNFe: '1' }] };
  const error = fails(t, () => validateNfeBody(body));
  t.regex((error.data!.details as any).camposDesconhecidos[0].motivo, /referenciadas\[\]\.chaveAcesso/);
});

test('validateNfeBody accepts the old ST names as known keys (the rules refuse them with 422)', (t) => {
  const body = withItem({ icms: { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18, baseCalculoST: 1, aliquotaST: 1, valorST: 1 } });
  t.notThrows(() => validateNfeBody(body));
});

test('validateNfeBody refuses 1.005 in a 2-decimal amount naming path and limit', (t) => {
  const error = fails(t, () => validateNfeBody({ ...aValidNfeBody(), pagamentos: [{ forma: '01', valor: 1.005 }] }));
  t.deepEqual(error.data!.errors, [{ field: 'pagamentos[0].valor', message: "O campo 'pagamentos[0].valor' aceita no máximo 2 casas decimais." }]);
});

test('validateNfeBody accepts 1, 1.5, 1.55, binary residue and 9999999999999.99 as money', (t) => {
  for (const valor of [1, 1.5, 1.55, 0.1 + 0.2, 9999999999999.99]) {
    t.notThrows(() => validateNfeBody({ ...aValidNfeBody(), troco: valor }), String(valor));
  }
});

test('validateNfeBody refuses a 14th integer digit in 13v2 money', (t) => {
  const error = fails(t, () => validateNfeBody({ ...aValidNfeBody(), troco: 99999999999999 }));
  t.deepEqual(fieldsOf(error), ['troco']);
  t.regex((error.data!.errors as any)[0].message, /13 dígitos inteiros/);
});

test('validateNfeBody checks 11v0-4 quantities and 11v0-10 unit values', (t) => {
  t.notThrows(() => validateNfeBody(withItem({ quantidade: 1.2345, valorUnitario: 1.1234567891 })));
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ quantidade: 1.23456 })))), ['items[0].quantidade']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ valorUnitario: 1.12345678912 })))), ['items[0].valorUnitario']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ valorUnitario: 123456789012 })))), ['items[0].valorUnitario']);
});

test('validateNfeBody checks 3v2-4 rates', (t) => {
  t.notThrows(() => validateNfeBody(withItem({ icms: { origem: 0, cst: '20', vBC: 1, pICMS: 18.1234, vICMS: 0.18, pRedBC: 999.9999 } })));
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ icms: { origem: 0, cst: '00', pICMS: 18.12345 } })))), ['items[0].icms.pICMS']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ icms: { origem: 0, cst: '00', pICMS: 1000 } })))), ['items[0].icms.pICMS']);
});

test('validateNfeBody checks 12v3 weights of transporte.volumes', (t) => {
  const transporte = (peso: number): any => ({ modFrete: 0, volumes: [{ quantidade: 1, pesoLiquido: peso, pesoBruto: peso }] });
  t.notThrows(() => validateNfeBody({ ...aValidNfeBody(), transporte: transporte(1.234) }));
  t.notThrows(() => validateNfeBody({ ...aValidNfeBody(), transporte: transporte(999999999999.999) }));
  const error = fails(t, () => validateNfeBody({ ...aValidNfeBody(), transporte: transporte(1.2345) }));
  t.deepEqual(fieldsOf(error), ['transporte.volumes[0].pesoLiquido', 'transporte.volumes[0].pesoBruto']);
});

test('validateNfeBody requires modFrete when transporte is sent', (t) => {
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody({ ...aValidNfeBody(), transporte: {} as any }))), ['transporte.modFrete']);
});

test('validateNfeBody refuses finNFe outside 1-6 and items named wrong sizes', (t) => {
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody({ ...aValidNfeBody(), finNFe: 7 as any }))), ['finNFe']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody({ ...aValidNfeBody(), items: [] }))), ['items']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ ncm: '1234' })))), ['items[0].ncm']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ cfop: '4102' })))), ['items[0].cfop']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ ean: '1234567' })))), ['items[0].ean']);
});

test('validateNfeBody refuses a partial tax-unit group naming the missing fields', (t) => {
  const error = fails(t, () => validateNfeBody(withItem({ unidadeTributavel: 'CX' })));
  t.deepEqual(fieldsOf(error), ['items[0].quantidadeTributavel', 'items[0].valorUnitarioTributavel']);
  const two = fails(t, () => validateNfeBody(withItem({ unidadeTributavel: 'CX', quantidadeTributavel: 1 })));
  t.deepEqual(fieldsOf(two), ['items[0].valorUnitarioTributavel']);
  t.notThrows(() => validateNfeBody(withItem({ unidadeTributavel: 'CX', quantidadeTributavel: 1, valorUnitarioTributavel: 100 })));
});

test('validateNfeBody requires destinatario.ie for a contributor', (t) => {
  const body = aValidNfeBody();
  body.destinatario = { ...body.destinatario, cnpjCpf: '11444777000161', indicadorIE: 1 };
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(body))), ['destinatario.ie']);
  t.notThrows(() => validateNfeBody({ ...body, destinatario: { ...body.destinatario, ie: '110042490114' } }));
});

test('validateNfeBody with batchIndex prefixes the note index in paths', (t) => {
  const error = fails(t, () => validateNfeBody(withItem({ quantidade: 1.23456 }), { batchIndex: 2 }));
  t.deepEqual(fieldsOf(error), ['notas[2].items[0].quantidade']);
});

test('validateBatchBody names the note index and keeps hints for unknown keys', (t) => {
  const bad: any = withItem({});
  bad.items[0].icms.pRedBCX = 1;
  bad.items[0].icms.vICMSSTRet = 1;
  const error = fails(t, () => validateBatchBody({ notas: [aValidNfeBody(), aValidNfeBody(), bad] }));
  const unknown = (error.data!.details as any).camposDesconhecidos;
  t.deepEqual(unknown.map((u: any) => u.caminho), ['notas[2].items[0].icms.pRedBCX', 'notas[2].items[0].icms.vICMSSTRet']);
  t.is(unknown[0].motivo, undefined);
  t.regex(unknown[1].motivo, /retido anteriormente/);
});

test('validateBatchBody accepts 1-100 notes and refuses 0 or 101', (t) => {
  t.is(validateBatchBody({ notas: [aValidNfeBody()] }).notas.length, 1);
  t.deepEqual(fieldsOf(fails(t, () => validateBatchBody({ notas: [] }))), ['notas']);
  t.deepEqual(fieldsOf(fails(t, () => validateBatchBody({ notas: Array.from({ length: 101 }, () => aValidNfeBody()) }))), ['notas']);
});

test('validateBatchBody reports a partial tax-unit group with the note index', (t) => {
  const error = fails(t, () => validateBatchBody({ notas: [aValidNfeBody(), withItem({ unidadeTributavel: 'CX', quantidadeTributavel: 1 })] }));
  t.deepEqual(fieldsOf(error), ['notas[1].items[0].valorUnitarioTributavel']);
});

test('validateNfceBody refuses indPres 0 and NF-e-only fields with a motivo', (t) => {
  t.deepEqual(fieldsOf(fails(t, () => validateNfceBody({ ...aValidNfceBody(), indPres: 0 as any }))), ['indPres']);
  const error = fails(t, () => validateNfceBody({ ...aValidNfceBody(), destinatario: {} } as any));
  t.regex((error.data!.details as any).camposDesconhecidos[0].motivo, /destCPF e destNome/);
});

test('validateNfceBody accepts every allowed indPres and a CPF or CNPJ consumer', (t) => {
  for (const indPres of [1, 2, 3, 4, 5, 9] as const) t.notThrows(() => validateNfceBody(aValidNfceBody({ indPres })));
  t.notThrows(() => validateNfceBody(aValidNfceBody({ destCPF: '11444777000161' })));
  t.deepEqual(fieldsOf(fails(t, () => validateNfceBody(aValidNfceBody({ destCPF: '123.456.789-09' })))), ['destCPF']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfceBody(aValidNfceBody({ destNome: 'Joao' })))), ['destNome']);
});

test('validateNfeBody refuses a non-object body without crashing', (t) => {
  fails(t, () => validateNfeBody(null));
  fails(t, () => validateNfeBody('x'));
  fails(t, () => validateBatchBody([]));
});

test('validateNfeBody requires descricao with forma 99', (t) => {
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody({ ...aValidNfeBody(), pagamentos: [{ forma: '99', valor: 100 }] }))), ['pagamentos[0].descricao']);
  t.notThrows(() => validateNfeBody({ ...aValidNfeBody(), pagamentos: [{ forma: '99', valor: 100, descricao: 'Permuta' }] }));
  t.deepEqual(fieldsOf(fails(t, () => validateNfceBody({ ...aValidNfceBody(), pagamentos: [{ forma: '99', valor: 100 }] }))), ['pagamentos[0].descricao']);
});

test('validateNfeBody with batchIndex keeps the layout hints', (t) => {
  const body: any = aValidNfeBody();
  body.items[0].icms.vBCSTRet = 1;
  const error = fails(t, () => validateNfeBody(body, { batchIndex: 4 }));
  const [unknown] = (error.data!.details as any).camposDesconhecidos;
  t.is(unknown.caminho, 'notas[4].items[0].icms.vBCSTRet');
  t.regex(unknown.motivo, /retido anteriormente/);
});

test('validateNfeBody refuses ie with an exempt recipient (indicadorIE 2)', (t) => {
  const body = aValidNfeBody();
  body.destinatario = { ...body.destinatario, cnpjCpf: '11444777000161', indicadorIE: 2, ie: '110042490114' };
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(body))), ['destinatario.ie']);
  t.notThrows(() => validateNfeBody({ ...body, destinatario: { ...body.destinatario, ie: undefined } }));
});

test('validateNfeBody treats null as absent: optional fields drop, required ones are missing', (t) => {
  const body: any = aValidNfeBody();
  body.items[0].icms.vBC = null;
  body.troco = null;
  const out = validateNfeBody(body);
  t.false('vBC' in out.items[0]!.icms);
  t.false('troco' in out);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody({ ...aValidNfeBody(), destinatario: null } as any))), ['destinatario']);
});

test('validateNfeBody refuses a JSON "__proto__" key as unknown instead of adopting it', (t) => {
  const body = JSON.parse(JSON.stringify(aValidNfeBody()).replace('{', '{"__proto__":{"tpNF":0},'));
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual((error.data!.details as any).camposDesconhecidos, [{ campo: '__proto__', caminho: '__proto__', objeto: '' }]);
});

test('validateNfeBody gives no motivo to keys named like Object.prototype members', (t) => {
  const body: any = aValidNfeBody();
  body.constructor = 1;
  body.items[0].toString = 'x';
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual((error.data!.details as any).camposDesconhecidos, [
    { campo: 'toString', caminho: 'items[0].toString', objeto: 'items[0]' },
    { campo: 'constructor', caminho: 'constructor', objeto: '' },
  ]);
});

test('validateNfeBody refuses text the layout (TString) cannot carry with 400 naming the field: a BOM, a combining accent, an edge space, a line break', (t) => {
  const body: any = aValidNfeBody();
  body.destinatario.email = '\ufeff';
  body.items[0].codigo = 'c\u0327a\u0303o';
  body.naturezaOperacao = 'Venda ';
  body.informacoesComplementares = 'linha 1\nlinha 2';
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual(fieldsOf(error).sort(), ['destinatario.email', 'informacoesComplementares', 'items[0].codigo', 'naturezaOperacao']);
  t.regex((error.data!.errors as { message: string }[])[0]!.message, /caracteres imprimíveis do leiaute/);
});

test('validateNfceBody and validateNfeBody accept Latin-1 accents and a CEST with a mask, which the rules check', (t) => {
  t.notThrows(() => validateNfceBody({ ...aValidNfceBody(), items: [{ ...anItem(), descricao: 'Pão de queijo ÇÃÕ ½', cest: '01.003.00' }] }));
  t.notThrows(() => validateNfeBody(withItem({ codigo: 'ação-1' })));
});

test('validateNfeBody refuses 1e308 in a quantity or an amount with 400 naming the field (it used to reach the rules and throw in BigInt)', (t) => {
  const error = fails(t, () => validateNfeBody(withItem({ quantidade: 1e308, valorUnitario: 1.797693134862316e304 })));
  t.deepEqual(fieldsOf(error).sort(), ['items[0].quantidade', 'items[0].valorUnitario']);
});

test('validateNfeBody takes items[].icmsUfDest with layout names, widths and the three interstate rates', (t) => {
  const group = { vBCUFDest: 100, vBCFCPUFDest: 100, pFCPUFDest: 2, pICMSUFDest: 20.5, pICMSInter: 7, pICMSInterPart: 100, vFCPUFDest: 2, vICMSUFDest: 13.5, vICMSUFRemet: 0 };
  t.deepEqual(validateNfeBody(withItem({ icmsUfDest: group })).items[0]!.icmsUfDest, group);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ icmsUfDest: { pICMSInter: 5 } })))), ['items[0].icmsUfDest.pICMSInter']);
  t.deepEqual(fieldsOf(fails(t, () => validateNfeBody(withItem({ icmsUfDest: { vICMSUFDest: 1.005 } })))), ['items[0].icmsUfDest.vICMSUFDest']);
  const unknown = fails(t, () => validateNfeBody(withItem({ icmsUfDest: { vICMSUFDestino: 1 } })));
  t.like((unknown.data!.details as any).camposDesconhecidos, [{ campo: 'vICMSUFDestino', caminho: 'items[0].icmsUfDest.vICMSUFDestino' }]);
});

test('validateNfeBody refuses a UF that does not exist with 400 naming the field (the 27 UFs and EX pass)', (t) => {
  const body: any = withItem({});
  body.destinatario.endereco.uf = 'XX';
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual(error.data, { errors: [{ field: 'destinatario.endereco.uf', message: "O campo 'destinatario.endereco.uf' deve ser a sigla de uma UF (ou EX para exterior)." }] });
  for (const uf of ['AC', 'DF', 'TO', 'EX']) {
    const ok: any = withItem({});
    ok.destinatario.endereco.uf = uf;
    t.notThrows(() => validateNfeBody(ok), uf);
  }
});

test('validateNfeBody answers 400 when a contributor recipient (indicadorIE 1) has no ie, before any rule or number', (t) => {
  const body: any = withItem({});
  body.destinatario = { ...body.destinatario, cnpjCpf: '11444777000161', indicadorIE: 1 };
  const error = fails(t, () => validateNfeBody(body));
  t.deepEqual(error.data, { errors: [{ field: 'destinatario.ie', message: "O campo 'destinatario.ie' é obrigatório quando indicadorIE é 1 (contribuinte)." }] });
});

import test from 'ava';
import { DomainError } from '../../../lib/errors/index.js';
import { validateNfseBody } from '../../../lib/nfse/validate.js';
import { aValidNfseBody } from '../../support/nfse-factories.js';

function fails(t: any, body: unknown): DomainError {
  const error = t.throws(() => validateNfseBody(body), { instanceOf: DomainError }) as DomainError;
  t.is(error.type, 'VALIDATION_ERROR');
  t.is(error.code, 400);
  return error;
}
const fieldsOf = (e: DomainError) => (e.data!.errors as { field: string }[]).map((x) => x.field);
const withServico = (over: Record<string, unknown>) => aValidNfseBody({ servico: { ...aValidNfseBody().servico, ...over } });
const withDps = (over: Record<string, unknown>) => aValidNfseBody({ dpsNacional: { ...aValidNfseBody().dpsNacional, ...over } });

test('validateNfseBody accepts a complete body, applies serie 1 and regEspTrib 0, and does not mutate the input', (t) => {
  const sent = aValidNfseBody();
  const before = JSON.stringify(sent);
  const body = validateNfseBody(sent);
  t.is(JSON.stringify(sent), before);
  t.is(body.serie, 1);
  t.is(body.dpsNacional!.regEspTrib, 0);
  t.is(body.dpsNacional!.tpRetISSQN, undefined, 'tpRetISSQN keeps no default: rule 4 reconciles it');
});

test('validateNfseBody accepts every field the spec names, including the compatibility ones', (t) => {
  const body = validateNfseBody(aValidNfseBody({
    rps: { numero: 10, serie: 'A1', tipo: 1 },
    serie: 99999,
    naturezaOperacao: 'Prestacao de servicos', regimeTributacao: 6, optanteSimples: true, exigibilidadeISS: 1,
    dpsNacional: {
      opSimpNac: 3, regApTribSN: 2, regEspTrib: 9, cTribNac: '010101', cTribMun: '001', tribISSQN: 1, tpRetISSQN: 2,
      cstPisCofins: '01', tpRetPisCofins: 3, pTotTribSN: 99.99,
    },
    tomador: { ...aValidNfseBody().tomador, inscricaoMunicipal: '123', endereco: { ...aValidNfseBody().tomador.endereco, complemento: 'SALA 1' } },
    servico: {
      valorServicos: 123456789012345, discriminacao: 'Linha 1\nLinha 2', itemListaServico: '01.01', codigoNBS: '115021000',
      codigoMunicipio: '3550308', codigoTributacaoMunicipio: '001', aliquotaIss: 9.99, descontoIncondicionado: 1.5,
      descontoCondicionado: 1.55, valorDeducoes: 1,
    },
    retencoes: { issRetidoPor: 2, inss: 1, irrf: 2, csll: 3, pis: 0, cofins: 0, outrasRetencoes: 0 },
    ibsCbs: {
      cst: '000', cClassTrib: '000001', cCredPres: '01', cIndOp: '100301', finNFSe: 0, indDest: 0, indFinal: 1, tpEnteGov: 1, tpOper: 1,
      gDif: { pDifUF: 100, pDifMun: 0, pDifCBS: 12.34 }, gTribRegular: { cstReg: '000', cClassTribReg: '000001' },
    },
    informacoesComplementares: 'Pedido 123',
    resolverTributacao: false,
  }));
  t.is(body.servico.valorServicos, 123456789012345);
});

test('validateNfseBody: issuerId is required and must be a UUID', (t) => {
  const body = aValidNfseBody();
  delete body.issuerId;
  t.deepEqual(fieldsOf(fails(t, body)), ['issuerId']);
  t.deepEqual(fieldsOf(fails(t, aValidNfseBody({ issuerId: 'abc' }))), ['issuerId']);
});

test('validateNfseBody: money is TSDec15V2 — 1.005 refused with path and limit; 15 integer digits pass, 16 do not', (t) => {
  const e = fails(t, withServico({ valorServicos: 1.005 }));
  t.deepEqual(e.data!.errors, [{ field: 'servico.valorServicos', message: "O campo 'servico.valorServicos' aceita no máximo 2 casas decimais." }]);
  for (const ok of [1, 1.5, 1.55, 0.1 + 0.2, 999999999999999]) t.notThrows(() => validateNfseBody(withServico({ valorServicos: ok })), String(ok));
  const wide = fails(t, withServico({ valorServicos: 1000000000000000 }));
  t.deepEqual(wide.data!.errors, [{ field: 'servico.valorServicos', message: "O campo 'servico.valorServicos' aceita no máximo 15 dígitos inteiros." }]);
  // Found by the mutation property: a value printed with an exponent (1e21 and up) used to pass.
  for (const huge of [1e21, 1.797693134862316e306]) t.deepEqual(fieldsOf(fails(t, withServico({ valorServicos: huge }))), ['servico.valorServicos']);
  for (const field of ['descontoIncondicionado', 'descontoCondicionado', 'valorDeducoes']) {
    t.deepEqual(fieldsOf(fails(t, withServico({ [field]: 0.001 }))), [`servico.${field}`]);
  }
  for (const field of ['inss', 'irrf', 'csll', 'pis', 'cofins', 'outrasRetencoes']) {
    t.deepEqual(fieldsOf(fails(t, aValidNfseBody({ retencoes: { [field]: 1.005 } }))), [`retencoes.${field}`]);
    t.deepEqual(fieldsOf(fails(t, aValidNfseBody({ retencoes: { [field]: -1 } }))), [`retencoes.${field}`]);
  }
});

test('validateNfseBody: pTotTribSN up to 2 decimals and 99.99 (layout TSDec2V2); aliquotaIss one integer digit (TSDec1V2)', (t) => {
  t.deepEqual(fieldsOf(fails(t, withDps({ pTotTribSN: 6.125 }))), ['dpsNacional.pTotTribSN']);
  t.deepEqual(fieldsOf(fails(t, withDps({ pTotTribSN: 100 }))), ['dpsNacional.pTotTribSN']);
  t.deepEqual(fieldsOf(fails(t, withServico({ aliquotaIss: 10 }))), ['servico.aliquotaIss']);
  t.deepEqual(fieldsOf(fails(t, withServico({ aliquotaIss: 2.001 }))), ['servico.aliquotaIss']);
  t.deepEqual(fieldsOf(fails(t, aValidNfseBody({ ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301', finNFSe: 0, indDest: 0, gDif: { pDifUF: 1.234, pDifMun: 0, pDifCBS: 0 } } }))), ['ibsCbs.gDif.pDifUF']);
});

test('validateNfseBody: codes sized as the spec and the layout say', (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [withDps({ opSimpNac: 4 }), 'dpsNacional.opSimpNac'],
    [withDps({ regApTribSN: 0 }), 'dpsNacional.regApTribSN'],
    [withDps({ regEspTrib: 7 }), 'dpsNacional.regEspTrib'],
    [withDps({ cTribNac: '01010' }), 'dpsNacional.cTribNac'],
    [withDps({ cTribMun: '1' }), 'dpsNacional.cTribMun'],
    [withDps({ tribISSQN: 5 }), 'dpsNacional.tribISSQN'],
    [withDps({ tpRetISSQN: 0 }), 'dpsNacional.tpRetISSQN'],
    [withDps({ cstPisCofins: '1' }), 'dpsNacional.cstPisCofins'],
    [withDps({ tpRetPisCofins: 10 }), 'dpsNacional.tpRetPisCofins'],
    [aValidNfseBody({ serie: 100000 }), 'serie'],
    [aValidNfseBody({ competencia: '2026-11' }), 'competencia'],
    [withServico({ codigoNBS: '1150210' }), 'servico.codigoNBS'],
    [withServico({ codigoMunicipio: '355030' }), 'servico.codigoMunicipio'],
    [withServico({ itemListaServico: '1.01' }), 'servico.itemListaServico'],
    [withServico({ discriminacao: '' }), 'servico.discriminacao'],
    [withServico({ discriminacao: 'bell \u0007' }), 'servico.discriminacao'],
    [withServico({ discriminacao: 'lone \uD800 surrogate' }), 'servico.discriminacao'],
    [aValidNfseBody({ tomador: { ...aValidNfseBody().tomador, inscricaoMunicipal: '12\u0000' } }), 'tomador.inscricaoMunicipal'],
    [aValidNfseBody({ tomador: { ...aValidNfseBody().tomador, cnpjCpf: '123' } }), 'tomador.cnpjCpf'],
    [aValidNfseBody({ tomador: { ...aValidNfseBody().tomador, razaoSocial: ' ESPACO' } }), 'tomador.razaoSocial'],
    [aValidNfseBody({ tomador: { ...aValidNfseBody().tomador, razaoSocial: 'Emoji 😀 Ltda' } }), 'tomador.razaoSocial'],
    [aValidNfseBody({ tomador: { ...aValidNfseBody().tomador, telefone: '12345' } }), 'tomador.telefone'],
    [aValidNfseBody({ retencoes: { issRetidoPor: 4 } }), 'retencoes.issRetidoPor'],
  ];
  for (const [body, field] of cases) t.deepEqual(fieldsOf(fails(t, body)), [field], field);
});

test('validateNfseBody: without resolverTributacao the DPS fields assisted taxation would fill are required (400)', (t) => {
  const e = fails(t, aValidNfseBody({ dpsNacional: undefined, ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301' } }));
  t.deepEqual(fieldsOf(e), ['dpsNacional.opSimpNac', 'dpsNacional.cTribNac', 'dpsNacional.tribISSQN', 'ibsCbs.finNFSe', 'ibsCbs.indDest']);
  t.regex((e.data!.errors as any[])[0].message, /resolverTributacao/);
  t.notThrows(() => validateNfseBody(aValidNfseBody({ dpsNacional: undefined, resolverTributacao: true, ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301' } })));
});

test('validateNfseBody: the ibsCbs passthrough needs cst, cClassTrib and cIndOp even when assisted', (t) => {
  const e = fails(t, aValidNfseBody({ resolverTributacao: true, ibsCbs: { finNFSe: 0, indDest: 0 } }));
  t.deepEqual(fieldsOf(e), ['ibsCbs.cst', 'ibsCbs.cClassTrib', 'ibsCbs.cIndOp']);
});

test('validateNfseBody: null is "not sent"', (t) => {
  const body = validateNfseBody(aValidNfseBody({ retencoes: null, ibsCbs: null, tomador: { ...aValidNfseBody().tomador, email: null } }));
  t.is(body.retencoes, undefined);
  t.false('email' in body.tomador!);
});

test('validateNfseBody refuses unknown keys at any depth with camposDesconhecidos and the layout motivo', (t) => {
  const body = aValidNfseBody();
  body.nDPS = 5;
  body.tomador.xNome = 'X';
  body.tomador.endereco.pais = 'BR';
  body.servico.comExt = {};
  body.ibsCbs = { cst: '000', cClassTrib: '000001', cIndOp: '100301', finNFSe: 0, indDest: 0, gDif: { pDifUF: 0, pDifMun: 0, pDifCBS: 0, pDifIBS: 1 } };
  const e = fails(t, body);
  // fastest-validator reports the deepest objects first, then each parent's own keys.
  t.deepEqual((e.data!.details as any).camposDesconhecidos, [
    { campo: 'pais', caminho: 'tomador.endereco.pais', objeto: 'tomador.endereco' },
    { campo: 'xNome', caminho: 'tomador.xNome', objeto: 'tomador', motivo: "No leiaute existe com outro nome: nesta API use 'tomador.razaoSocial'." },
    { campo: 'comExt', caminho: 'servico.comExt', objeto: 'servico', motivo: 'Grupo/campo do leiaute não suportado por esta API: comércio exterior (comExt).' },
    { campo: 'pDifIBS', caminho: 'ibsCbs.gDif.pDifIBS', objeto: 'ibsCbs.gDif' },
    { campo: 'nDPS', caminho: 'nDPS', objeto: '', motivo: 'Campo calculado ou definido pelo serviço, não enviado: o número da DPS (nDPS) é alocado pelo serviço por emissor e série.' },
  ]);
  const errors = e.data!.errors as { field: string; message: string }[];
  t.is(errors.length, 5);
  t.is(errors[0]!.message, "Campo desconhecido 'pais' em 'tomador.endereco'. Campos aceitos: logradouro, numero, complemento, bairro, codigoMunicipio, cep.");
});

test('validateNfseBody refuses unknown keys inside rps and dpsNacional too', (t) => {
  const e = fails(t, aValidNfseBody({ rps: { numero: 1, dataEmissao: '2026-01-01' }, dpsNacional: { ...aValidNfseBody().dpsNacional, xpto: 1 } }));
  t.deepEqual((e.data!.details as any).camposDesconhecidos.map((c: any) => c.caminho), ['rps.dataEmissao', 'dpsNacional.xpto']);
});

test('validateNfseBody: no body is a 400 naming the required fields, never a crash', (t) => {
  const e = fails(t, undefined);
  t.deepEqual(fieldsOf(e), ['issuerId', 'servico']);
});

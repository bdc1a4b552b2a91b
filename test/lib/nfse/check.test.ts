import test from 'ava';
import { CATALOG } from '../../../lib/errors/index.js';
import { checkNfse } from '../../../lib/nfse/check.js';
import { validateNfseBody } from '../../../lib/nfse/validate.js';
import { aValidNfseBody, anNfseIssuer } from '../../support/nfse-factories.js';
import { throwsCode } from '../../support/domain-errors.js';

const MES = '2026-11';
const body = (over: Record<string, unknown> = {}) => validateNfseBody(aValidNfseBody(over));
const dps = (over: Record<string, unknown>) => ({ ...aValidNfseBody().dpsNacional, ...over });
const check = (b: any, issuer = anNfseIssuer()) => checkNfse(b, issuer, { mesAtual: MES });

test('checkNfse turns a valid body into the checked DPS, without warnings', (t) => {
  const { dps: d, avisos } = check(body({ servico: { ...aValidNfseBody().servico, codigoTributacaoMunicipio: '001' } }));
  t.deepEqual(avisos, []);
  t.deepEqual(d.regTrib, { opSimpNac: 3, regApTribSN: 1, regEspTrib: 0 });
  t.deepEqual(d.servico, {
    codigoMunicipio: '3550308', cTribNac: '010101', cTribMun: '001',
    discriminacao: 'Desenvolvimento de sistemas sob encomenda', codigoNBS: '115021000',
  });
  t.deepEqual(d.tribMun, { tribISSQN: 1, tpRetISSQN: 1, aliquotaIss: 2 });
  t.deepEqual(d.totTrib, { pTotTribSN: 6 });
  t.is(d.tribFed, undefined);
  t.is(d.ibsCbs, undefined);
});

test('every NFS-e code is catalogued with status 422 and a Portuguese message', (t) => {
  for (const code of ['RPS_SEM_CAMPO_NO_PADRAO_NACIONAL', 'CTRIBMUN_CONFLITO', 'RETENCAO_ISS_CONFLITO', 'RETENCAO_PIS_COFINS_SEM_CST',
    'RETENCAO_PIS_COFINS_INCOERENTE', 'RETENCAO_SEM_CAMPO_NO_LEIAUTE', 'CRT2_SEM_REGIME_APURACAO', 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL',
    'PTOTTRIBSN_OBRIGATORIO', 'TRIBUTACAO_NAO_RESOLVIDA'] as const) {
    t.is(CATALOG[code].status, 422, code);
    t.true(CATALOG[code].detail.length > 10, code);
  }
});

// Rule 2
test('rule 2: any rps.* refuses RPS_SEM_CAMPO_NO_PADRAO_NACIONAL naming the fields', (t) => {
  const e = throwsCode(t, () => check(body({ rps: { numero: 12, tipo: 1 } })), 'RPS_SEM_CAMPO_NO_PADRAO_NACIONAL');
  t.deepEqual(e.data, { campos: ['rps.numero', 'rps.tipo'] });
  t.is(e.code, 422);
});

test('rule 2 boundary: an empty rps and the compatibility fields pass and are not carried', (t) => {
  const { dps: d } = check(body({ rps: {}, naturezaOperacao: 'NATUREZA-XYZ', regimeTributacao: 1, optanteSimples: true, exigibilidadeISS: 1 }));
  t.false(JSON.stringify(d).includes('NATUREZA-XYZ'));
});

// Rule 3
test('rule 3: different cTribMun and codigoTributacaoMunicipio refuse CTRIBMUN_CONFLITO', (t) => {
  const e = throwsCode(t, () => check(body({ dpsNacional: dps({ cTribMun: '001' }), servico: { ...aValidNfseBody().servico, codigoTributacaoMunicipio: '002' } })), 'CTRIBMUN_CONFLITO');
  t.deepEqual(e.data, { campos: ['dpsNacional.cTribMun', 'servico.codigoTributacaoMunicipio'], recebido: { cTribMun: '001', codigoTributacaoMunicipio: '002' } });
});

test('rule 3 boundary: equal values, or only one of them, write cTribMun', (t) => {
  t.is(check(body({ dpsNacional: dps({ cTribMun: '001' }), servico: { ...aValidNfseBody().servico, codigoTributacaoMunicipio: '001' } })).dps.servico.cTribMun, '001');
  t.is(check(body({ dpsNacional: dps({ cTribMun: '003' }) })).dps.servico.cTribMun, '003');
  t.is(check(body()).dps.servico.cTribMun, undefined);
});

// Rule 4
test('rule 4: different tpRetISSQN and issRetidoPor refuse RETENCAO_ISS_CONFLITO', (t) => {
  const e = throwsCode(t, () => check(body({ dpsNacional: dps({ tpRetISSQN: 2 }), retencoes: { issRetidoPor: 1 } })), 'RETENCAO_ISS_CONFLITO');
  t.deepEqual(e.data, { campos: ['dpsNacional.tpRetISSQN', 'retencoes.issRetidoPor'], recebido: { tpRetISSQN: 2, issRetidoPor: 1 } });
});

test('rule 4 boundary: equal values or one of them is written; neither writes 1', (t) => {
  t.is(check(body({ dpsNacional: dps({ tpRetISSQN: 2 }), retencoes: { issRetidoPor: 2 } })).dps.tribMun.tpRetISSQN, 2);
  t.is(check(body({ retencoes: { issRetidoPor: 3 } })).dps.tribMun.tpRetISSQN, 3);
  t.is(check(body({ dpsNacional: dps({ tpRetISSQN: 2 }) })).dps.tribMun.tpRetISSQN, 2);
  t.is(check(body()).dps.tribMun.tpRetISSQN, 1);
});

// Rule 5
test('rule 5: tpRetPisCofins without cstPisCofins refuses RETENCAO_PIS_COFINS_SEM_CST', (t) => {
  const e = throwsCode(t, () => check(body({ dpsNacional: dps({ tpRetPisCofins: 1 }) })), 'RETENCAO_PIS_COFINS_SEM_CST');
  t.deepEqual(e.data, { campo: 'dpsNacional.cstPisCofins', tpRetPisCofins: 1 });
});

test('rule 5: codes 3, 7, 8, 9 declare CSLL retained and need retencoes.csll, else RETENCAO_PIS_COFINS_INCOERENTE', (t) => {
  for (const code of [3, 7, 8, 9]) {
    const e = throwsCode(t, () => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }), retencoes: { irrf: 10 } })), 'RETENCAO_PIS_COFINS_INCOERENTE');
    t.like(e.data, { campo: 'retencoes.csll', tpRetPisCofins: code });
    throwsCode(t, () => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }), retencoes: { csll: 0 } })), 'RETENCAO_PIS_COFINS_INCOERENTE');
    const ok = check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }), retencoes: { csll: 0.01 } }));
    t.deepEqual(ok.dps.tribFed, { piscofins: { cst: '01', tpRetPisCofins: code }, csll: 0.01 });
  }
});

test('rule 5: codes 0, 4, 5, 6 declare CSLL not retained and refuse a CSLL value; 1 and 2 say nothing about CSLL', (t) => {
  for (const code of [0, 4, 5, 6]) {
    throwsCode(t, () => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }), retencoes: { csll: 5 } })), 'RETENCAO_PIS_COFINS_INCOERENTE');
    t.notThrows(() => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }) })));
  }
  for (const code of [1, 2]) {
    t.notThrows(() => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }), retencoes: { csll: 5 } })));
    t.notThrows(() => check(body({ dpsNacional: dps({ cstPisCofins: '01', tpRetPisCofins: code }) })));
  }
});

// Rule 6
test('rule 6: pis, cofins or outrasRetencoes other than 0 refuse RETENCAO_SEM_CAMPO_NO_LEIAUTE naming them all', (t) => {
  const e = throwsCode(t, () => check(body({ retencoes: { pis: 1, cofins: 0, outrasRetencoes: 0.01 } })), 'RETENCAO_SEM_CAMPO_NO_LEIAUTE');
  t.like(e.data, { campos: ['retencoes.pis', 'retencoes.outrasRetencoes'] });
});

test('rule 6 boundary: zeros pass; inss, irrf and csll are written as vRetCP, vRetIRRF, vRetCSLL', (t) => {
  const { dps: d } = check(body({ retencoes: { pis: 0, cofins: 0, outrasRetencoes: 0, inss: 165, irrf: 22.5, csll: 15 } }));
  t.deepEqual(d.tribFed, { inss: 165, irrf: 22.5, csll: 15 });
});

// Rule 7
test('rule 7: crt 2 without regApTribSN refuses CRT2_SEM_REGIME_APURACAO, also when assisted', (t) => {
  const issuer = anNfseIssuer({ crt: 2, cTribNacPadrao: '010101', tribIssqnPadrao: 1 });
  throwsCode(t, () => check(body({ dpsNacional: dps({ regApTribSN: undefined }) }), issuer), 'CRT2_SEM_REGIME_APURACAO');
  const e = throwsCode(t, () => check(body({ dpsNacional: undefined, resolverTributacao: true }), { ...issuer, pTotTribSNPadrao: 6, pTotTribSNCompetencia: MES }), 'CRT2_SEM_REGIME_APURACAO');
  t.deepEqual(e.data, { campo: 'dpsNacional.regApTribSN', crt: 2 });
});

test('rule 7 boundary: crt 2 with regApTribSN passes; crt 1 derives 1; other regimes write none', (t) => {
  t.is(check(body({ dpsNacional: dps({ regApTribSN: 3 }) }), anNfseIssuer({ crt: 2 })).dps.regTrib.regApTribSN, 3);
  t.is(check(body({ dpsNacional: dps({ regApTribSN: undefined }) }), anNfseIssuer({ crt: 1 })).dps.regTrib.regApTribSN, 1);
  t.is(check(body({ dpsNacional: dps({ regApTribSN: undefined, opSimpNac: 1 }) }), anNfseIssuer({ crt: 3 })).dps.regTrib.regApTribSN, undefined);
});

// Rule 8
test('rule 8: an ME/EPP optant without pTotTribSN in request and issuer record refuses PTOTTRIBSN_OBRIGATORIO', (t) => {
  const e = throwsCode(t, () => check(body({ dpsNacional: dps({ pTotTribSN: undefined }) })), 'PTOTTRIBSN_OBRIGATORIO');
  t.deepEqual(e.data, { campo: 'dpsNacional.pTotTribSN', opSimpNac: 3 });
});

test('rule 8: the request value wins over the issuer record, with no warning', (t) => {
  const r = check(body({ dpsNacional: dps({ pTotTribSN: 4.5 }) }), anNfseIssuer({ pTotTribSNPadrao: 6, pTotTribSNCompetencia: '2020-01' }));
  t.deepEqual(r.dps.totTrib, { pTotTribSN: 4.5 });
  t.deepEqual(r.avisos, []);
});

test('rule 8: the issuer record value of the current month is used silently; stale, future or missing months warn', (t) => {
  const noValue = body({ dpsNacional: dps({ pTotTribSN: undefined }) });
  const current = check(noValue, anNfseIssuer({ pTotTribSNPadrao: 6.12, pTotTribSNCompetencia: MES }));
  t.deepEqual(current, { ...current, avisos: [] });
  t.deepEqual(current.dps.totTrib, { pTotTribSN: 6.12 });
  const codes = (competencia: string | null) => check(noValue, anNfseIssuer({ pTotTribSNPadrao: 6.12, pTotTribSNCompetencia: competencia })).avisos.map((a) => a.codigo);
  t.deepEqual(codes('2026-10'), ['PTOTTRIBSN_COMPETENCIA_ANTERIOR']);
  t.deepEqual(codes('2025-12'), ['PTOTTRIBSN_COMPETENCIA_ANTERIOR']);
  t.deepEqual(codes('2026-12'), ['PTOTTRIBSN_COMPETENCIA_FUTURA']);
  t.deepEqual(codes(null), ['PTOTTRIBSN_COMPETENCIA_AUSENTE']);
  const [aviso] = check(noValue, anNfseIssuer({ pTotTribSNPadrao: 6.12, pTotTribSNCompetencia: '2026-10' })).avisos;
  t.deepEqual(aviso, {
    codigo: 'PTOTTRIBSN_COMPETENCIA_ANTERIOR', campo: 'dpsNacional.pTotTribSN', competencia: '2026-10',
    mensagem: 'pTotTribSN veio do cadastro do emissor com competência 2026-10, anterior ao mês atual (2026-11). Confirme o percentual com o contador e atualize pTotTribSNPadrao e pTotTribSNCompetencia no cadastro do emissor.',
  });
});

test('rule 8: other regimes without pTotTribSN declare indTotTrib 0 (not informed)', (t) => {
  const d = check(body({ dpsNacional: dps({ opSimpNac: 1, pTotTribSN: undefined, regApTribSN: undefined }) }), anNfseIssuer({ crt: 3, pTotTribSNPadrao: 6 })).dps;
  t.deepEqual(d.totTrib, { indTotTrib: 0 });
  t.deepEqual(check(body({ dpsNacional: dps({ opSimpNac: 2, pTotTribSN: undefined, regApTribSN: undefined }) }), anNfseIssuer({ crt: 4 })).dps.totTrib, { indTotTrib: 0 });
});

// Rule 9 (through checkNfse; the pure decision is tested in rules/municipio.test.ts)
test('rule 9: a confirmed non-adhering municipality refuses MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL; unknown never does', (t) => {
  const e = throwsCode(t, () => checkNfse(body(), anNfseIssuer(), { mesAtual: MES, adesaoMunicipio: 'nao_aderente' }), 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL');
  t.deepEqual(e.data, { codigoMunicipio: '3550308' });
  t.notThrows(() => checkNfse(body(), anNfseIssuer(), { mesAtual: MES, adesaoMunicipio: 'desconhecido' }));
  t.notThrows(() => checkNfse(body(), anNfseIssuer(), { mesAtual: MES, adesaoMunicipio: 'aderente' }));
});

// Rule 10 (through checkNfse; the resolver alone is tested in rules/resolver.test.ts)
test('rule 10: resolverTributacao fills the DPS from the issuer record; a field without source answers camposNaoResolvidos', (t) => {
  const assisted = body({ dpsNacional: undefined, resolverTributacao: true });
  const issuer = anNfseIssuer({ cTribNacPadrao: '171901', tribIssqnPadrao: 1, pTotTribSNPadrao: 8, pTotTribSNCompetencia: MES });
  const { dps: d } = check(assisted, issuer);
  t.deepEqual(d.regTrib, { opSimpNac: 3, regApTribSN: 1, regEspTrib: 0 });
  t.is(d.servico.cTribNac, '171901');
  t.deepEqual(d.totTrib, { pTotTribSN: 8 });
  const e = throwsCode(t, () => check(assisted, anNfseIssuer()), 'TRIBUTACAO_NAO_RESOLVIDA');
  t.deepEqual(e.data, {
    camposNaoResolvidos: [
      { campo: 'dpsNacional.cTribNac', motivo: 'emissor sem cTribNacPadrao no cadastro' },
      { campo: 'dpsNacional.tribISSQN', motivo: 'emissor sem tributação do ISSQN padrão (tribIssqnPadrao) no cadastro' },
    ],
  });
});

test('checkNfse carries the ibsCbs passthrough group and the taker as sent, and never mutates its input', (t) => {
  const ibsCbs = { cst: '200', cClassTrib: '200052', cIndOp: '100301', finNFSe: 0, indDest: 0, indFinal: 1, gDif: { pDifUF: 10, pDifMun: 10, pDifCBS: 10 } };
  const b = body({ ibsCbs });
  const before = JSON.stringify(b);
  const { dps: d } = check(b);
  t.is(JSON.stringify(b), before);
  t.deepEqual(d.ibsCbs, ibsCbs as any);
  t.deepEqual(d.tomador, aValidNfseBody().tomador);
});

test('checkNfse refuses in rule order: rps first, even with other conflicts', (t) => {
  throwsCode(t, () => check(body({ rps: { numero: 1 }, dpsNacional: dps({ tpRetISSQN: 2 }), retencoes: { issRetidoPor: 1, pis: 3 } })), 'RPS_SEM_CAMPO_NO_PADRAO_NACIONAL');
});

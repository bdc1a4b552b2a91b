import test from 'ava';
import { STATUS_CODES } from 'node:http';
import { startStack, type HttpResult, type Stack } from '../support/stack.js';
import { aValidNfseBody } from '../support/nfse-factories.js';
import { companyWithA1, integratorWithA1 } from '../support/e2e.js';
import { CATALOG, type ErrorCode } from '../../lib/errors/index.js';
import { brasiliaDay } from '../../lib/emission/build-context.js';

/**
 * POST /v1/nfse refusals over HTTP with every service real (issue 16, item 1): each NFS-e rule code,
 * the issuer selection and the preflight answer their whole envelope, and none of them uses a
 * DPS number (the next emission takes the number the refused ones would have).
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;

const NFSE_ISSUER = { crt: 1, inscricaoMunicipal: '12345678', email: 'fiscal@prestador.com.br', fiscalBrainEnabled: true };

test.before(async () => {
  stack = await startStack();
  ({ headers, issuerId } = await integratorWithA1(stack, NFSE_ISSUER));
});
test.after.always(async () => { await stack?.stop(); });

function envelope(res: HttpResult, status: number, slug: string, detail: string, extra: Record<string, unknown> = {}) {
  return {
    error: {
      type: `https://errors.test/${slug}`, title: STATUS_CODES[status], status, detail, ...extra,
      instance: '/v1/nfse', requestId: res.headers.get('x-request-id'), timestamp: res.body?.error?.timestamp,
    },
  };
}

const post = (body: unknown) => stack.request('POST', '/v1/nfse', { headers, body });
const documents = async () => Number((await stack.knex('emission.nfse_documents').count('* as n'))[0]!.n);

async function refusedWith(t: any, body: unknown, code: ErrorCode, details?: Record<string, unknown>, detail: string = CATALOG[code].detail) {
  const before = await documents();
  const res = await post(body);
  t.is(res.status, CATALOG[code].status, res.text);
  t.deepEqual(res.body, envelope(res, CATALOG[code].status, code, detail, details ? { details } : {}));
  t.is(await documents(), before, 'a refusal stored a document');
}

test.serial('without issuerId: 400 BAD_REQUEST before the rest of validation (NFS-e always needs issuerId); unknown fields are reported first, with it', async (t) => {
  const { issuerId: _omit, ...body } = aValidNfseBody();
  const res = await post({ ...body, servico: { ...body.servico, valorServicos: 1.005 } });
  t.is(res.status, 400);
  t.deepEqual(res.body, envelope(res, 400, 'BAD_REQUEST', 'informe issuerId: NFS-e exige issuerId'));
  // Unknown keys are the body's alone (API.md, Emission rules 1): reported without waiting for an issuerId.
  const unknown = await post({ ...body, campoInexistente: 1 });
  t.deepEqual(unknown.body, envelope(unknown, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{ field: 'issuerId', message: "O campo 'issuerId' é obrigatório." }, { field: 'campoInexistente', message: unknown.body.error.errors?.[1]?.message }],
    details: { camposDesconhecidos: [{ campo: 'campoInexistente', caminho: 'campoInexistente', objeto: '' }] },
  }));
  t.regex(unknown.body.error.errors[1].message, /^Campo desconhecido 'campoInexistente'\. Campos aceitos: issuerId, /);
});

test.serial('an issuerId of nobody answers 404 NOT_FOUND', async (t) => {
  const res = await post(aValidNfseBody({ issuerId: '00000000-0000-4000-8000-000000000000' }));
  t.is(res.status, 404);
  t.deepEqual(res.body, envelope(res, 404, 'NOT_FOUND', 'Emissor não encontrado.'));
});

test.serial('unknown field: 400 VALIDATION_ERROR with camposDesconhecidos, nothing stored', async (t) => {
  const before = await documents();
  const res = await post(aValidNfseBody({ issuerId, servico: { ...aValidNfseBody().servico, valorIss: 10 } }));
  t.is(res.status, 400);
  t.deepEqual(res.body, envelope(res, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{
      field: 'servico.valorIss',
      message: "Campo desconhecido 'valorIss' em 'servico'. Campos aceitos: valorServicos, discriminacao, itemListaServico, codigoNBS, codigoMunicipio, codigoTributacaoMunicipio, aliquotaIss, descontoIncondicionado, descontoCondicionado, valorDeducoes.",
    }],
    details: { camposDesconhecidos: [{ campo: 'valorIss', caminho: 'servico.valorIss', objeto: 'servico' }] },
  }));
  t.is(await documents(), before);
});

test.serial('rule 1: valorServicos with a fraction of a cent answers 400 naming the field', async (t) => {
  const res = await post(aValidNfseBody({ issuerId, servico: { ...aValidNfseBody().servico, valorServicos: 1.005 } }));
  t.is(res.status, 400);
  t.deepEqual(res.body, envelope(res, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{ field: 'servico.valorServicos', message: "O campo 'servico.valorServicos' aceita no máximo 2 casas decimais." }],
  }));
});

test.serial('rule 2: rps in a national-standard DPS is 422 RPS_SEM_CAMPO_NO_PADRAO_NACIONAL', async (t) => {
  await refusedWith(t, aValidNfseBody({ issuerId, rps: { numero: 10, serie: 'A' } }), 'RPS_SEM_CAMPO_NO_PADRAO_NACIONAL', { campos: ['rps.numero', 'rps.serie'] });
});

test.serial('rule 3: cTribMun and codigoTributacaoMunicipio differing is 422 CTRIBMUN_CONFLITO', async (t) => {
  const body = aValidNfseBody({ issuerId, dpsNacional: { ...aValidNfseBody().dpsNacional, cTribMun: '001' }, servico: { ...aValidNfseBody().servico, codigoTributacaoMunicipio: '002' } });
  await refusedWith(t, body, 'CTRIBMUN_CONFLITO', {
    campos: ['dpsNacional.cTribMun', 'servico.codigoTributacaoMunicipio'], recebido: { cTribMun: '001', codigoTributacaoMunicipio: '002' },
  });
});

test.serial('rule 4: tpRetISSQN and issRetidoPor differing is 422 RETENCAO_ISS_CONFLITO', async (t) => {
  const body = aValidNfseBody({ issuerId, dpsNacional: { ...aValidNfseBody().dpsNacional, tpRetISSQN: 1 }, retencoes: { issRetidoPor: 2 } });
  await refusedWith(t, body, 'RETENCAO_ISS_CONFLITO', { campos: ['dpsNacional.tpRetISSQN', 'retencoes.issRetidoPor'], recebido: { tpRetISSQN: 1, issRetidoPor: 2 } });
});

test.serial('rule 5: tpRetPisCofins without cstPisCofins, and CSLL incoherence, are 422', async (t) => {
  const dps = aValidNfseBody().dpsNacional;
  await refusedWith(t, aValidNfseBody({ issuerId, dpsNacional: { ...dps, tpRetPisCofins: 1 } }), 'RETENCAO_PIS_COFINS_SEM_CST', { campo: 'dpsNacional.cstPisCofins', tpRetPisCofins: 1 });
  await refusedWith(t, aValidNfseBody({ issuerId, dpsNacional: { ...dps, cstPisCofins: '01', tpRetPisCofins: 3 } }), 'RETENCAO_PIS_COFINS_INCOERENTE', {
    campo: 'retencoes.csll', tpRetPisCofins: 3, motivo: 'o código declara CSLL retida: informe retencoes.csll maior que zero',
  }, 'tpRetPisCofins 3 declara CSLL retida e retencoes.csll não foi informado.');
});

test.serial('rule 6: retencoes.pis different from 0 is 422 RETENCAO_SEM_CAMPO_NO_LEIAUTE', async (t) => {
  await refusedWith(t, aValidNfseBody({ issuerId, retencoes: { pis: 10 } }), 'RETENCAO_SEM_CAMPO_NO_LEIAUTE', {
    campos: ['retencoes.pis'], motivo: 'retenção de PIS/COFINS é declarada por dpsNacional.tpRetPisCofins; outras retenções não existem no leiaute da DPS',
  });
});

test.serial('rule 7: an issuer with crt 2 without regApTribSN is 422 CRT2_SEM_REGIME_APURACAO', async (t) => {
  const crt2 = await companyWithA1(stack, headers, { ...NFSE_ISSUER, crt: 2 });
  const { regApTribSN: _omit, ...dps } = aValidNfseBody().dpsNacional;
  await refusedWith(t, aValidNfseBody({ issuerId: crt2.issuerId, dpsNacional: dps }), 'CRT2_SEM_REGIME_APURACAO', { campo: 'dpsNacional.regApTribSN', crt: 2 });
});

test.serial('rule 8: an ME/EPP optant without pTotTribSN anywhere is 422 PTOTTRIBSN_OBRIGATORIO', async (t) => {
  const { pTotTribSN: _omit, ...dps } = aValidNfseBody().dpsNacional;
  await refusedWith(t, aValidNfseBody({ issuerId, dpsNacional: dps }), 'PTOTTRIBSN_OBRIGATORIO', { campo: 'dpsNacional.pTotTribSN', opSimpNac: 3 });
});

test.serial('rule 8 over HTTP: pTotTribSN from the issuer record with an old pTotTribSNCompetencia is emitted (201) with an aviso asking to confirm it', async (t) => {
  const padrao = await companyWithA1(stack, headers, { ...NFSE_ISSUER, pTotTribSNPadrao: 6.5, pTotTribSNCompetencia: '2025-01' });
  const { pTotTribSN: _omit, ...dps } = aValidNfseBody().dpsNacional;
  const res = await post(aValidNfseBody({ issuerId: padrao.issuerId, dpsNacional: dps }));
  t.is(res.status, 201, res.text);
  const mesAtual = brasiliaDay(new Date()).slice(0, 7);
  t.deepEqual(res.body.data.avisos, [{
    codigo: 'PTOTTRIBSN_COMPETENCIA_ANTERIOR', campo: 'dpsNacional.pTotTribSN', competencia: '2025-01',
    mensagem: `pTotTribSN veio do cadastro do emissor com competência 2025-01, anterior ao mês atual (${mesAtual}). Confirme o percentual com o contador e atualize pTotTribSNPadrao e pTotTribSNCompetencia no cadastro do emissor.`,
  }]);
  t.like(res.body.data, { status: 'AUTHORIZED', nDPS: 1 });
  // The percentage the record holds is what the DPS declared.
  const xml = await stack.request('GET', `/v1/nfse/${res.body.data.id}/xml`, { headers });
  t.regex(xml.text, /<pTotTribSN>6\.50<\/pTotTribSN>/);
  const got = await stack.request('GET', `/v1/nfse/${res.body.data.id}`, { headers });
  t.deepEqual(got.body.data.avisos, res.body.data.avisos);
});

test.serial('rule 10: resolverTributacao without cTribNacPadrao nor tribIssqnPadrao is 422 TRIBUTACAO_NAO_RESOLVIDA', async (t) => {
  const body = aValidNfseBody({ issuerId, resolverTributacao: true, dpsNacional: { pTotTribSN: 6 } });
  await refusedWith(t, body, 'TRIBUTACAO_NAO_RESOLVIDA', {
    camposNaoResolvidos: [
      { campo: 'dpsNacional.cTribNac', motivo: 'emissor sem cTribNacPadrao no cadastro' },
      { campo: 'dpsNacional.tribISSQN', motivo: 'emissor sem tributação do ISSQN padrão (tribIssqnPadrao) no cadastro' },
    ],
  });
});

test.serial('rule 10 is assisted taxation: an issuer without fiscalBrainEnabled is 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL before any number', async (t) => {
  const closed = await companyWithA1(stack, headers, { ...NFSE_ISSUER, fiscalBrainEnabled: false });
  const body = aValidNfseBody({ issuerId: closed.issuerId, resolverTributacao: true, dpsNacional: { pTotTribSN: 6 } });
  await refusedWith(t, body, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: 'SCALE', planoIncluiFiscalBrain: true, fiscalBrainEnabled: false });
});

test.serial('preflight: no certificate is 422 CERTIFICADO_AUSENTE after the rules passed', async (t) => {
  const company = await stack.request('POST', '/v1/companies', { headers, body: { ...(await import('../services/issuer/support.js')).aCompleteIssuer(NFSE_ISSUER) } });
  const noCert = company.body.data.issuerId;
  await refusedWith(t, aValidNfseBody({ issuerId: noCert }), 'CERTIFICADO_AUSENTE');
});

test.serial('preflight: an issuer without inscrição municipal is 422 CADASTRO_EMISSOR_INCOMPLETO listing it', async (t) => {
  const noIm = await companyWithA1(stack, headers, { crt: 1 });
  const before = await documents();
  const res = await post(aValidNfseBody({ issuerId: noIm.issuerId }));
  t.is(res.status, 422);
  t.deepEqual(res.body, envelope(res, 422, 'CADASTRO_EMISSOR_INCOMPLETO', 'Cadastro do emissor incompleto: inscricaoMunicipal.', { details: { camposFaltando: ['inscricaoMunicipal'] } }));
  t.is(await documents(), before);
});

test.serial('rule 9: a municipality confirmed nao_aderente is 422 before numbering, with the message Sefin gave', async (t) => {
  const other = await companyWithA1(stack, headers, { ...NFSE_ISSUER, endereco: { logradouro: 'Rua A', numero: '1', bairro: 'Centro', codigoMunicipio: '3304557', uf: 'RJ', cep: '20010000' } });
  const mensagem = 'O código do município emissor informado na DPS é inexistente no cadastro de convênio municipal do sistema nacional.';
  await stack.knex('emission.nfse_municipalities').insert({ codigo_municipio: '3304557', environment: 2, adesao: 'nao_aderente', mensagem, updated_at: new Date() });
  await refusedWith(t, aValidNfseBody({ issuerId: other.issuerId }), 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', { codigoMunicipio: '3304557', mensagemSefin: mensagem });
});

test.serial('refusals use no DPS number: the first accepted DPS of the issuer is nDPS 1', async (t) => {
  const res = await post(aValidNfseBody({ issuerId }));
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { nDPS: 1, serie: 1, model: 'NFSe', amount: '1500.00', issuerId });
  t.regex(res.body.data.idDps, /^DPS3550308\d{35}$/);
});

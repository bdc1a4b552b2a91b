import test from 'ava';
import { toGzipBase64 } from '../../../lib/sefin/payload.js';
import {
  MalformedAnswerError, nfseFacts, parseConvenioAnswer, parseDpsAnswer, parseEventAnswer, parseNfseAnswer, parseSubmitAnswer,
} from '../../../lib/sefin/responses.js';

const CHAVE = '35503082212345678000195000000000000126111234567891';
const ID_DPS = `DPS3550308212345678000195000010${'0'.repeat(14)}1`;
const NFSE = `<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infNFSe Id="NFS${CHAVE}"><nNFSe>12</nNFSe>`
  + `<dhProc>2026-11-25T13:00:00-03:00</dhProc><DPS versao="1.01"><infDPS Id="${ID_DPS}"></infDPS></DPS></infNFSe></NFSe>`;
const body = (o: unknown) => JSON.stringify(o);

test('nfseFacts reads nNFSe, dhProc, the chave (infNFSe Id) and the idDps', (t) => {
  t.deepEqual(nfseFacts(NFSE), { numeroNfse: '12', authorizedAt: '2026-11-25T13:00:00-03:00', idDps: ID_DPS, chaveAcesso: CHAVE });
  t.throws(() => nfseFacts('<NFSe></NFSe>'), { instanceOf: MalformedAnswerError });
});

test('parseSubmitAnswer: 201 is the NFS-e with alertas; 400 erros[] (PascalCase) verbatim', (t) => {
  const ok = parseSubmitAnswer(201, body({ tipoAmbiente: 2, idDps: ID_DPS, chaveAcesso: CHAVE, nfseXmlGZipB64: toGzipBase64(NFSE), alertas: [{ Codigo: 'A001', Descricao: 'Aviso' }] }), ID_DPS);
  t.deepEqual(ok, {
    kind: 'authorized', alertas: [{ codigo: 'A001', descricao: 'Aviso' }], chaveAcesso: CHAVE, idDps: ID_DPS, numeroNfse: '12',
    nfseXml: NFSE, authorizedAt: '2026-11-25T13:00:00-03:00',
  });
  t.deepEqual(parseSubmitAnswer(400, body({ idDPS: ID_DPS, erros: [{ Codigo: 'E0037', Descricao: 'Texto', Complemento: 'detalhe' }] }), ID_DPS), {
    kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0037', descricao: 'Texto', complemento: 'detalhe' }],
  });
});

test('parseSubmitAnswer throws on what is not Sefin’s judgement of this DPS', (t) => {
  for (const [status, b] of [
    [500, body({ erros: [{ Codigo: 'X', Descricao: 'y' }] })],
    [400, body({ mensagem: 'sem erros' })],
    [201, body({ chaveAcesso: CHAVE })],
    [201, body({ chaveAcesso: CHAVE, nfseXmlGZipB64: '@@' })],
    [201, '<html>gateway</html>'],
  ] as const) {
    t.throws(() => parseSubmitAnswer(status, b, ID_DPS), { instanceOf: MalformedAnswerError }, `${status} ${b}`);
  }
  const otherDps = ID_DPS.replace(/1$/, '2');
  t.throws(() => parseSubmitAnswer(201, body({ chaveAcesso: CHAVE, nfseXmlGZipB64: toGzipBase64(NFSE) }), otherDps), { message: /another DPS/ });
});

test('parseDpsAnswer and parseNfseAnswer: 404 is none, 200 the chave / the NFS-e', (t) => {
  t.is(parseDpsAnswer(404, body({ erro: { codigo: null, descricao: 'DPS sem NFS-e gerada.' } })), null);
  t.is(parseDpsAnswer(200, body({ idDps: ID_DPS, chaveAcesso: CHAVE })), CHAVE);
  t.throws(() => parseDpsAnswer(200, body({ chaveAcesso: '123' })), { instanceOf: MalformedAnswerError });
  t.is(parseNfseAnswer(404, '{}', CHAVE), null);
  t.is(parseNfseAnswer(200, body({ chaveAcesso: CHAVE, nfseXmlGZipB64: toGzipBase64(NFSE) }), CHAVE)!.numeroNfse, '12');
  t.throws(() => parseNfseAnswer(200, body({ chaveAcesso: CHAVE, nfseXmlGZipB64: toGzipBase64(NFSE) }), CHAVE.replace(/1$/, '2')), { instanceOf: MalformedAnswerError });
});

test('parseEventAnswer: 201 the registered evento with its dhProc; 400 erros', (t) => {
  const evento = '<evento><infEvento Id="EVT1"><dhProc>2026-11-25T14:00:00-03:00</dhProc></infEvento></evento>';
  t.deepEqual(parseEventAnswer(201, body({ eventoXmlGZipB64: toGzipBase64(evento) })), { kind: 'registered', eventXml: evento, registeredAt: '2026-11-25T14:00:00-03:00' });
  t.deepEqual(parseEventAnswer(400, body({ erros: [{ codigo: 'E0718', descricao: 'x' }] })), { kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0718', descricao: 'x' }] });
  t.throws(() => parseEventAnswer(503, 'Service Unavailable'), { instanceOf: MalformedAnswerError });
});

test('parseConvenioAnswer: aderenteAmbienteNacional 1 adheres; 0 or 404 does not, keeping mensagem', (t) => {
  t.deepEqual(parseConvenioAnswer(200, body({ parametrosConvenio: { aderenteAmbienteNacional: 1 }, mensagem: 'ok' })), { kind: 'aderente' });
  t.deepEqual(parseConvenioAnswer(200, body({ parametrosConvenio: { aderenteAmbienteNacional: 0 }, mensagem: 'não' })), { kind: 'nao_aderente', mensagem: 'não' });
  t.deepEqual(parseConvenioAnswer(404, body({ mensagem: 'Município não encontrado' })), { kind: 'nao_aderente', mensagem: 'Município não encontrado' });
  t.throws(() => parseConvenioAnswer(200, body({ parametrosConvenio: {} })), { instanceOf: MalformedAnswerError });
  t.throws(() => parseConvenioAnswer(500, body({})), { instanceOf: MalformedAnswerError });
});

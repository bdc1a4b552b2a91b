import test from 'ava';
import { DomainError } from '../../../lib/errors/index.js';
import { renderError } from '../../../lib/http/error-envelope.js';
import { checkNfse } from '../../../lib/nfse/check.js';
import { municipioNaoAderenteFromSefin } from '../../../lib/nfse/rules/municipio.js';
import { validateNfseBody } from '../../../lib/nfse/validate.js';
import { aValidNfseBody, anNfseIssuer } from '../../support/nfse-factories.js';

/** What the gateway will answer for lib/nfse refusals once POST /v1/nfse is wired: whole envelopes. */
const ctx = { errorsBase: 'https://errors.test', instance: '/v1/nfse', requestId: 'req-1', timestamp: '2026-11-23T00:00:00.000Z' };
const envelope = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return renderError(err, ctx);
    throw err;
  }
  throw new Error('expected a refusal');
};
const common = { instance: '/v1/nfse', requestId: 'req-1', timestamp: '2026-11-23T00:00:00.000Z' };

test('1.005 in servico.valorServicos answers 400 VALIDATION_ERROR naming the field and the limit', (t) => {
  const { status, body } = envelope(() => validateNfseBody(aValidNfseBody({ servico: { valorServicos: 1.005, discriminacao: 'x' } })));
  t.is(status, 400);
  t.deepEqual(body, { error: {
    type: 'https://errors.test/VALIDATION_ERROR', title: 'Bad Request', status: 400, detail: 'Dados de entrada inválidos.',
    errors: [{ field: 'servico.valorServicos', message: "O campo 'servico.valorServicos' aceita no máximo 2 casas decimais." }], ...common,
  } });
});

test('an unknown key answers 400 with details.camposDesconhecidos', (t) => {
  const { status, body } = envelope(() => validateNfseBody(aValidNfseBody({ toma: {} })));
  t.is(status, 400);
  t.deepEqual(body.error.details, { camposDesconhecidos: [{ campo: 'toma', caminho: 'toma', objeto: '', motivo: "No leiaute existe com outro nome: nesta API use 'tomador'." }] });
});

test('RETENCAO_ISS_CONFLITO answers 422 with the conflicting fields in details', (t) => {
  const b = validateNfseBody(aValidNfseBody({ dpsNacional: { ...aValidNfseBody().dpsNacional, tpRetISSQN: 1 }, retencoes: { issRetidoPor: 2 } }));
  const { status, body } = envelope(() => checkNfse(b, anNfseIssuer(), { mesAtual: '2026-11' }));
  t.is(status, 422);
  t.deepEqual(body, { error: {
    type: 'https://errors.test/RETENCAO_ISS_CONFLITO', title: 'Unprocessable Entity', status: 422, detail: 'tpRetISSQN e issRetidoPor divergentes.',
    details: { campos: ['dpsNacional.tpRetISSQN', 'retencoes.issRetidoPor'], recebido: { tpRetISSQN: 1, issRetidoPor: 2 } }, ...common,
  } });
});

test('assisted taxation without source answers 422 with details.camposNaoResolvidos', (t) => {
  const b = validateNfseBody(aValidNfseBody({ dpsNacional: undefined, resolverTributacao: true }));
  const { status, body } = envelope(() => checkNfse(b, anNfseIssuer({ tribIssqnPadrao: 1 }), { mesAtual: '2026-11' }));
  t.is(status, 422);
  t.is(body.error.type, 'https://errors.test/TRIBUTACAO_NAO_RESOLVIDA');
  t.deepEqual(body.error.details, { camposNaoResolvidos: [{ campo: 'dpsNacional.cTribNac', motivo: 'emissor sem cTribNacPadrao no cadastro' }] });
});

test('an authority E0037 answers 422 MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL with details.mensagemSefin verbatim', (t) => {
  const { status, body } = renderError(municipioNaoAderenteFromSefin('3550308', 'E0037', 'Municipio nao aderente.')!, ctx);
  t.is(status, 422);
  t.deepEqual(body.error.details, { codigoMunicipio: '3550308', mensagemSefin: 'Municipio nao aderente.' });
});

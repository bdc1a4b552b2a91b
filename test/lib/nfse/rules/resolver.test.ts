import test from 'ava';
import { resolveTributacao } from '../../../../lib/nfse/rules/resolver.js';
import { validateNfseBody } from '../../../../lib/nfse/validate.js';
import { aValidNfseBody, anNfseIssuer } from '../../../support/nfse-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const assisted = (over: Record<string, unknown> = {}) => validateNfseBody(aValidNfseBody({ dpsNacional: undefined, resolverTributacao: true, ...over }));
const fullRecord = anNfseIssuer({ crt: 4, cTribNacPadrao: '010701', tribIssqnPadrao: 1, servicoPadraoLc116: '01.07', codigoNbsPadrao: '115013000', indDestPadrao: 0 });

test('resolveTributacao without the flag returns the body itself', (t) => {
  const b = validateNfseBody(aValidNfseBody());
  t.is(resolveTributacao(b, anNfseIssuer()), b);
});

test('resolveTributacao fills every absent field from the issuer record (opSimpNac from crt) and keeps what was sent', (t) => {
  const b = assisted({ servico: { valorServicos: 10, discriminacao: 'Suporte' }, ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301' } });
  const r = resolveTributacao(b, fullRecord);
  t.like(r.dpsNacional, { opSimpNac: 2, cTribNac: '010701', tribISSQN: 1, regEspTrib: 0 });
  t.is(r.dpsNacional!.regApTribSN, undefined);
  t.like(r.servico, { itemListaServico: '01.07', codigoNBS: '115013000' });
  t.like(r.ibsCbs, { finNFSe: 0, indDest: 0 });
  const sent = resolveTributacao(assisted({ dpsNacional: { opSimpNac: 1, cTribNac: '990101', regEspTrib: 0 }, servico: { valorServicos: 10, discriminacao: 'x', codigoNBS: '100000000' } }), fullRecord);
  t.like(sent.dpsNacional, { opSimpNac: 1, cTribNac: '990101', tribISSQN: 1 });
  t.is(sent.servico.codigoNBS, '100000000');
  t.is(b.dpsNacional, undefined, 'input not mutated');
});

test('resolveTributacao maps crt to opSimpNac: 1 and 2 → 3 (ME/EPP), 3 → 1, 4 → 2 (MEI)', (t) => {
  for (const [crt, op] of [[1, 3], [2, 3], [3, 1], [4, 2]] as const) {
    t.is(resolveTributacao(assisted(), { ...fullRecord, crt }).dpsNacional!.opSimpNac, op);
  }
});

test('resolveTributacao lists every mandatory field without source at once (422 TRIBUTACAO_NAO_RESOLVIDA)', (t) => {
  const e = throwsCode(t, () => resolveTributacao(assisted({ ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301' } }), anNfseIssuer()), 'TRIBUTACAO_NAO_RESOLVIDA');
  t.is(e.code, 422);
  t.deepEqual((e.data!.camposNaoResolvidos as any[]).map((c) => c.campo), ['dpsNacional.cTribNac', 'dpsNacional.tribISSQN', 'ibsCbs.indDest']);
});

test('resolveTributacao never fills pTotTribSN (rule 8 does, with its warning) nor regApTribSN (rule 7)', (t) => {
  const r = resolveTributacao(assisted(), { ...fullRecord, crt: 1, pTotTribSNPadrao: 5 });
  t.is(r.dpsNacional!.pTotTribSN, undefined);
  t.is(r.dpsNacional!.regApTribSN, undefined);
});

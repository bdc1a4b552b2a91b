import { DomainError } from '../errors/index.js';
import { dropNulls } from '../nfe/without-nulls.js';
import { resolveCTribMun } from './rules/ctribmun.js';
import { checkAdesaoMunicipio } from './rules/municipio.js';
import { resolveRegApTribSN } from './rules/regime.js';
import { resolveTributacao } from './rules/resolver.js';
import { checkPisCofinsRetention, checkRetencoesSemCampo, resolveTpRetIssqn } from './rules/retencoes.js';
import { checkRps } from './rules/rps.js';
import { resolveTotTrib } from './rules/tot-trib.js';
import type { AdesaoMunicipio, CheckedDps, CheckedIbsCbs, CheckedNfse, NfseBody, NfseIbsCbs, NfseIssuer } from './types.js';

export interface CheckNfseOptions {
  /** The current month in Brasília, AAAA-MM (rule 8 judges the issuer record's competência by it). */
  mesAtual: string;
  /**
   * Adherence of the service municipality to the national standard in the issuer's environment
   * (rule 9), when the service knows it; absent = not checked here.
   */
  adesaoMunicipio?: AdesaoMunicipio;
}

/**
 * The business rules of the NFS-e national standard (API.md, NFS-e rules 2-10), run on a body
 * lib/nfse/validate.ts accepted, before any DPS number is allocated. Each refusal is a catalogued
 * DomainError (422); the result is the CheckedDps the XML builder writes as is, plus `avisos[]`.
 *
 * Order: what the request alone contradicts first (rps, cTribMun pair, ISS retention pair,
 * PIS/COFINS retention, retentions without a tag), then assisted taxation (rule 10) and the issuer
 * facts (regApTribSN of rule 7, pTotTribSN of rule 8), then the municipality (rule 9).
 * The input is never mutated.
 */
export function checkNfse(sent: NfseBody, issuer: NfseIssuer, options: CheckNfseOptions): CheckedNfse {
  const request = dropNulls(sent);
  checkRps(request.rps);
  const cTribMun = resolveCTribMun(request.dpsNacional?.cTribMun, request.servico.codigoTributacaoMunicipio);
  const tpRetISSQN = resolveTpRetIssqn(request.dpsNacional?.tpRetISSQN, request.retencoes?.issRetidoPor);
  checkPisCofinsRetention(request.dpsNacional, request.retencoes);
  checkRetencoesSemCampo(request.retencoes);

  const body = resolveTributacao(request, issuer);
  const dps = body.dpsNacional;
  if (dps?.opSimpNac === undefined || dps.cTribNac === undefined || dps.tribISSQN === undefined) {
    // Only reachable when the caller skipped validateNfseBody: the same 400 it would give.
    const missing = (['opSimpNac', 'cTribNac', 'tribISSQN'] as const).filter((f) => dps?.[f] === undefined).map((f) => `dpsNacional.${f}`);
    throw new DomainError('VALIDATION_ERROR', { errors: missing.map((field) => ({ field, message: `O campo '${field}' é obrigatório.` })) });
  }
  const regApTribSN = resolveRegApTribSN(issuer.crt, dps.opSimpNac, dps.regApTribSN);
  const { totTrib, avisos } = resolveTotTrib(dps.opSimpNac, dps.pTotTribSN, issuer, options.mesAtual);

  const servico = body.servico;
  const codigoMunicipio = servico.codigoMunicipio ?? issuer.endereco.codigoMunicipio;
  if (options.adesaoMunicipio) checkAdesaoMunicipio(codigoMunicipio, options.adesaoMunicipio);

  const checked: CheckedDps = {
    serie: body.serie,
    ...(body.competencia !== undefined ? { competencia: body.competencia } : {}),
    regTrib: { opSimpNac: dps.opSimpNac, ...(regApTribSN !== undefined ? { regApTribSN } : {}), regEspTrib: dps.regEspTrib ?? 0 },
    ...(body.tomador ? { tomador: body.tomador } : {}),
    servico: withoutUndefined({
      codigoMunicipio,
      cTribNac: dps.cTribNac,
      cTribMun,
      discriminacao: servico.discriminacao,
      codigoNBS: servico.codigoNBS,
      itemListaServico: servico.itemListaServico,
    }),
    valores: withoutUndefined({
      valorServicos: servico.valorServicos,
      descontoIncondicionado: servico.descontoIncondicionado,
      descontoCondicionado: servico.descontoCondicionado,
      valorDeducoes: servico.valorDeducoes,
    }),
    tribMun: withoutUndefined({ tribISSQN: dps.tribISSQN, tpRetISSQN, aliquotaIss: servico.aliquotaIss }),
    totTrib,
    ...(body.informacoesComplementares !== undefined ? { informacoesComplementares: body.informacoesComplementares } : {}),
  };
  const tribFed = federal(body);
  if (tribFed) checked.tribFed = tribFed;
  if (body.ibsCbs) checked.ibsCbs = ibsCbsOf(body.ibsCbs);
  return { dps: checked, avisos };
}

/** tribFed: piscofins when a CST is declared; INSS (vRetCP), IRRF and CSLL when retained (> 0). */
function federal(body: NfseBody): CheckedDps['tribFed'] {
  const dps = body.dpsNacional;
  const r = body.retencoes;
  const positive = (v: number | undefined) => (v !== undefined && v > 0 ? v : undefined);
  const out = withoutUndefined({
    piscofins: dps?.cstPisCofins !== undefined ? withoutUndefined({ cst: dps.cstPisCofins, tpRetPisCofins: dps.tpRetPisCofins }) : undefined,
    inss: positive(r?.inss),
    irrf: positive(r?.irrf),
    csll: positive(r?.csll),
  });
  return Object.keys(out).length ? out : undefined;
}

/** The passthrough group with the fields validate/resolve guaranteed (cst, cClassTrib, cIndOp, finNFSe, indDest). */
function ibsCbsOf(g: NfseIbsCbs): CheckedIbsCbs {
  const missing = (['cst', 'cClassTrib', 'cIndOp', 'finNFSe', 'indDest'] as const).filter((f) => g[f] === undefined);
  if (missing.length) {
    throw new DomainError('VALIDATION_ERROR', { errors: missing.map((f) => ({ field: `ibsCbs.${f}`, message: `O campo 'ibsCbs.${f}' é obrigatório.` })) });
  }
  return withoutUndefined({
    finNFSe: g.finNFSe!, indFinal: g.indFinal, cIndOp: g.cIndOp!, tpOper: g.tpOper, tpEnteGov: g.tpEnteGov, indDest: g.indDest!,
    cst: g.cst!, cClassTrib: g.cClassTrib!, cCredPres: g.cCredPres, gTribRegular: g.gTribRegular, gDif: g.gDif,
  });
}

function withoutUndefined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

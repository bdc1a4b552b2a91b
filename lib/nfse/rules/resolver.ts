import type { Crt } from '../../issuer/types.js';
import { DomainError } from '../../errors/index.js';
import type { NfseBody, NfseIssuer, OpSimpNac } from '../types.js';
import { serviceItem } from '../servico/catalog.js';
import { resolveServico, type ServicoResolvido } from '../servico/resolve.js';

/** One field assisted taxation could not fill (API.md, emission rule 9: `camposNaoResolvidos[]`). */
export interface CampoNaoResolvido {
  campo: string;
  motivo: string;
}

/** opSimpNac from the issuer's crt: 1 and 2 are Simples ME/EPP, 4 is MEI, 3 is normal regime. */
const OP_SIMP_NAC_BY_CRT: Record<Crt, OpSimpNac> = { 1: 3, 2: 3, 3: 1, 4: 2 };

/**
 * API.md, NFS-e rule 10: with `resolverTributacao: true`, the DPS fields absent from the request
 * are filled from the issuer record; a mandatory one without a source answers 422
 * TRIBUTACAO_NAO_RESOLVIDA with every unresolved field at once in `camposNaoResolvidos`. Without
 * the flag the body is returned as is (the validator already required those fields). What the
 * request sent always wins. Pure: the service passes the issuer record it fetched.
 *
 * Sources: opSimpNac ← crt; cTribNac ← cTribNacPadrao, else the LC 116 item's only national
 * desdobro (Anexo B, lib/nfse/servico); tribISSQN ← tribIssqnPadrao; itemListaServico ←
 * servicoPadraoLc116; codigoNBS ← codigoNbsPadrao, else the item's only NBS (Anexo VIII); ibsCbs.finNFSe ← 0 (the
 * only value of layout 1.01, "NFS-e regular"); ibsCbs.indDest ← indDestPadrao; regEspTrib ←
 * regEspTribPadrao when the request has no dpsNacional group.
 * pTotTribSN is left to rule 8 (lib/nfse/rules/tot-trib.ts), which takes pTotTribSNPadrao in every
 * emission form and warns about its competência; filling it here would hide that warning.
 * regApTribSN is never filled here (rule 7: crt 2 must send it even when assisted).
 * The `ibsCbs` passthrough fields (cst, cClassTrib, cIndOp…) are never resolved.
 */
export function resolveTributacao(body: NfseBody, issuer: NfseIssuer): NfseBody {
  if (body.resolverTributacao !== true) return body;
  const unresolved: CampoNaoResolvido[] = [];
  // regEspTrib has a schema default (0) inside dpsNacional; without the group the record's default applies.
  const dps = { ...(body.dpsNacional ?? { regEspTrib: issuer.regEspTribPadrao ?? 0 }) };
  const servico = { ...body.servico };

  dps.opSimpNac ??= OP_SIMP_NAC_BY_CRT[issuer.crt];
  // The annexes' answer for the LC 116 item (request's itemListaServico or the issuer's activity), as resolve-servico gives it.
  let annexes: ServicoResolvido | null | undefined;
  const fromAnnexes = () => {
    if (annexes === undefined) {
      try {
        annexes = resolveServico({ ...(servico.itemListaServico ? { lc116: servico.itemListaServico } : {}) }, issuer, serviceItem);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        annexes = null;
      }
    }
    return annexes;
  };
  if (dps.cTribNac === undefined) {
    const listed = issuer.cTribNacPadrao ? undefined : fromAnnexes()?.cTribNac.codigo;
    if (issuer.cTribNacPadrao) dps.cTribNac = issuer.cTribNacPadrao;
    else if (listed) dps.cTribNac = listed;
    else unresolved.push({ campo: 'dpsNacional.cTribNac', motivo: fromAnnexes() ? 'emissor sem cTribNacPadrao no cadastro e o item LC 116 tem vários desdobros nacionais' : 'emissor sem cTribNacPadrao no cadastro' });
  }
  if (dps.tribISSQN === undefined) {
    if (issuer.tribIssqnPadrao) dps.tribISSQN = issuer.tribIssqnPadrao;
    else unresolved.push({ campo: 'dpsNacional.tribISSQN', motivo: 'emissor sem tributação do ISSQN padrão (tribIssqnPadrao) no cadastro' });
  }
  if (servico.itemListaServico === undefined && issuer.servicoPadraoLc116) servico.itemListaServico = issuer.servicoPadraoLc116;
  if (servico.codigoNBS === undefined) {
    const nbs = issuer.codigoNbsPadrao ?? fromAnnexes()?.nbs.codigo;
    if (nbs) servico.codigoNBS = nbs;
  }

  let ibsCbs = body.ibsCbs;
  if (ibsCbs) {
    ibsCbs = { ...ibsCbs };
    ibsCbs.finNFSe ??= 0;
    if (ibsCbs.indDest === undefined) {
      if (issuer.indDestPadrao !== undefined && issuer.indDestPadrao !== null) ibsCbs.indDest = issuer.indDestPadrao;
      else unresolved.push({ campo: 'ibsCbs.indDest', motivo: 'emissor sem indDest padrão (indDestPadrao) no cadastro' });
    }
  }

  if (unresolved.length) throw new DomainError('TRIBUTACAO_NAO_RESOLVIDA', { camposNaoResolvidos: unresolved });
  return { ...body, dpsNacional: dps, servico, ...(ibsCbs ? { ibsCbs } : {}) };
}

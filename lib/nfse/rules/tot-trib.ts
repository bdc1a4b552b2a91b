import { DomainError } from '../../errors/index.js';
import type { NfseAviso, NfseIssuer, OpSimpNac, TotTrib } from '../types.js';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export interface TotTribResult {
  totTrib: TotTrib;
  avisos: NfseAviso[];
}

/**
 * API.md, NFS-e rule 8, totTrib of the DPS:
 * - `dpsNacional.pTotTribSN` sent in the request wins;
 * - otherwise a Simples Nacional optant (opSimpNac 2 or 3) takes the issuer record's
 *   `pTotTribSNPadrao`; when its `pTotTribSNCompetencia` (AAAA-MM) is missing, earlier than the
 *   current month in Brasília or in the future, the note is still emitted and `avisos[]` asks for
 *   a confirmation with the accountant;
 * - an ME/EPP optant (opSimpNac 3) without either refuses 422 PTOTTRIBSN_OBRIGATORIO (a code this
 *   service defines: the spec gives the 422 and no name);
 * - anyone else writes indTotTrib 0 (the document declares it does not inform the estimated tax).
 * `mesAtual` (AAAA-MM, Brasília) is an input: lib reads no clock.
 */
export function resolveTotTrib(
  opSimpNac: OpSimpNac,
  sent: number | undefined,
  issuer: Pick<NfseIssuer, 'pTotTribSNPadrao' | 'pTotTribSNCompetencia'>,
  mesAtual: string,
): TotTribResult {
  if (sent !== undefined) return { totTrib: { pTotTribSN: sent }, avisos: [] };
  const padrao = issuer.pTotTribSNPadrao;
  if (opSimpNac !== 1 && padrao !== undefined && padrao !== null) {
    const aviso = competenciaAviso(issuer.pTotTribSNCompetencia ?? undefined, mesAtual);
    return { totTrib: { pTotTribSN: padrao }, avisos: aviso ? [aviso] : [] };
  }
  if (opSimpNac === 3) {
    throw new DomainError('PTOTTRIBSN_OBRIGATORIO', { campo: 'dpsNacional.pTotTribSN', opSimpNac });
  }
  return { totTrib: { indTotTrib: 0 }, avisos: [] };
}

const CAMPO = 'dpsNacional.pTotTribSN';
const CONFIRME = 'Confirme o percentual com o contador e atualize pTotTribSNPadrao e pTotTribSNCompetencia no cadastro do emissor.';

function competenciaAviso(competencia: string | undefined, mesAtual: string): NfseAviso | undefined {
  if (!MONTH.test(mesAtual)) throw new RangeError(`mesAtual must be AAAA-MM: ${mesAtual}`);
  if (competencia === undefined || !MONTH.test(competencia)) {
    return {
      codigo: 'PTOTTRIBSN_COMPETENCIA_AUSENTE', campo: CAMPO,
      mensagem: `pTotTribSN veio do cadastro do emissor sem competência (pTotTribSNCompetencia). ${CONFIRME}`,
      ...(competencia !== undefined ? { competencia } : {}),
    };
  }
  // AAAA-MM strings compare in calendar order.
  if (competencia < mesAtual) {
    return {
      codigo: 'PTOTTRIBSN_COMPETENCIA_ANTERIOR', campo: CAMPO, competencia,
      mensagem: `pTotTribSN veio do cadastro do emissor com competência ${competencia}, anterior ao mês atual (${mesAtual}). ${CONFIRME}`,
    };
  }
  if (competencia > mesAtual) {
    return {
      codigo: 'PTOTTRIBSN_COMPETENCIA_FUTURA', campo: CAMPO, competencia,
      mensagem: `pTotTribSN veio do cadastro do emissor com competência futura (${competencia}; mês atual ${mesAtual}). ${CONFIRME}`,
    };
  }
  return undefined;
}

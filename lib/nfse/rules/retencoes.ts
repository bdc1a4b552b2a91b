import { DomainError } from '../../errors/index.js';
import type { DpsNacional, Retencoes, TpRetIssqn } from '../types.js';

/**
 * API.md, NFS-e rule 4: `dpsNacional.tpRetISSQN` and `retencoes.issRetidoPor` say the same thing
 * (1 not retained, 2 by the taker, 3 by the intermediary). Different values refuse; one is
 * written; neither means 1.
 */
export function resolveTpRetIssqn(tpRetISSQN: TpRetIssqn | undefined, issRetidoPor: TpRetIssqn | undefined): TpRetIssqn {
  if (tpRetISSQN !== undefined && issRetidoPor !== undefined && tpRetISSQN !== issRetidoPor) {
    throw new DomainError('RETENCAO_ISS_CONFLITO', {
      campos: ['dpsNacional.tpRetISSQN', 'retencoes.issRetidoPor'],
      recebido: { tpRetISSQN, issRetidoPor },
    });
  }
  return tpRetISSQN ?? issRetidoPor ?? 1;
}

/**
 * tpRetPisCofins (TSTipoRetPISCofins, DPS 1.01) codes that declare CSLL retained (3 PIS/COFINS/CSLL
 * retained, 7 COFINS/CSLL, 8 CSLL only, 9 PIS/CSLL) and those that declare it not retained (0, 4,
 * 5, 6). Codes 1 and 2 speak of PIS/COFINS only and say nothing about CSLL.
 */
const CSLL_RETIDA = new Set([3, 7, 8, 9]);
const CSLL_NAO_RETIDA = new Set([0, 4, 5, 6]);

/**
 * API.md, NFS-e rule 5: tpRetPisCofins lives in the piscofins group whose CST is mandatory, so it
 * needs `cstPisCofins`; and it is checked against `retencoes.csll`: a code declaring CSLL retained
 * needs a CSLL value (> 0), and a code declaring it not retained cannot carry one.
 */
export function checkPisCofinsRetention(dps: DpsNacional | undefined, retencoes: Retencoes | undefined): void {
  const tpRet = dps?.tpRetPisCofins;
  if (tpRet === undefined) return;
  if (dps?.cstPisCofins === undefined) {
    throw new DomainError('RETENCAO_PIS_COFINS_SEM_CST', { campo: 'dpsNacional.cstPisCofins', tpRetPisCofins: tpRet });
  }
  const csll = retencoes?.csll ?? 0;
  if (CSLL_RETIDA.has(tpRet) && !(csll > 0)) {
    throw new DomainError('RETENCAO_PIS_COFINS_INCOERENTE', {
      campo: 'retencoes.csll', tpRetPisCofins: tpRet, motivo: 'o código declara CSLL retida: informe retencoes.csll maior que zero',
    }, `tpRetPisCofins ${tpRet} declara CSLL retida e retencoes.csll não foi informado.`);
  }
  if (CSLL_NAO_RETIDA.has(tpRet) && csll > 0) {
    throw new DomainError('RETENCAO_PIS_COFINS_INCOERENTE', {
      campo: 'retencoes.csll', tpRetPisCofins: tpRet, csll, motivo: 'o código declara CSLL não retida',
    }, `tpRetPisCofins ${tpRet} declara CSLL não retida, mas retencoes.csll foi informado.`);
  }
}

/**
 * API.md, NFS-e rule 6: the DPS has tags for retained INSS (vRetCP), IRRF and CSLL only. PIS and
 * COFINS retention is declared by tpRetPisCofins, and "other retentions" have no tag: a value
 * other than 0 would be silently lost, so it refuses.
 */
export function checkRetencoesSemCampo(retencoes: Retencoes | undefined): void {
  if (!retencoes) return;
  const campos = (['pis', 'cofins', 'outrasRetencoes'] as const).filter((k) => (retencoes[k] ?? 0) !== 0);
  if (campos.length) {
    throw new DomainError('RETENCAO_SEM_CAMPO_NO_LEIAUTE', {
      campos: campos.map((k) => `retencoes.${k}`),
      motivo: 'retenção de PIS/COFINS é declarada por dpsNacional.tpRetPisCofins; outras retenções não existem no leiaute da DPS',
    });
  }
}

import { DomainError } from '../../errors/index.js';
import { formatCents } from '../../money.js';
import type { Icms, Item, Model } from '../types.js';
import { cents, productCents, withinOneCent } from './amounts.js';
import { refuse } from './icms-groups.js';

/**
 * Monofasic fuel ICMS (API.md, icms rule 9; NT 2023.001): CST 02 (own tax, NF-e only) and CST 61
 * (charged before, NF-e and NFC-e), in both regimes. The value must equal quantity × ad rem rate
 * (within one cent). CST 15 and 53 are not supported.
 */
const MONO_FIELDS = {
  '02': { q: 'qBCMono', rate: 'adRemICMS', v: 'vICMSMono' },
  '61': { q: 'qBCMonoRet', rate: 'adRemICMSRet', v: 'vICMSMonoRet' },
} as const;

export const UNSUPPORTED_MONO_CST = new Set(['15', '53']);

export function checkMonofasico(icms: Icms, item: number, cst: '02' | '61', model: Model): void {
  if (cst === '02' && model === '65') {
    refuse('ICMS_MONOFASICO_NAO_SUPORTADO', item, ['cst'], 'NFC-e aceita apenas o monofásico cobrado anteriormente (CST 61)');
  }
  const f = MONO_FIELDS[cst];
  const missing = [f.q, f.rate, f.v].filter((k) => icms[k] === undefined);
  if (missing.length) refuse('ICMS_INVALIDO', item, missing, `CST ${cst} exige ${f.q}, ${f.rate} e ${f.v}`);
  const expected = productCents(icms[f.q]!, icms[f.rate]!);
  if (!withinOneCent(expected, cents(icms[f.v]))) {
    refuse('ICMS_INVALIDO', item, [f.v], `${f.v} deve ser ${f.q} × ${f.rate}`, { esperado: formatCents(expected) });
  }
}

/** CFOP of fuel and lubricant operations (x.65x and x.66x of the CFOP table). */
export const isFuelCfop = (cfop: string): boolean => /^[1-7]6[56]\d$/.test(cfop);

/** ANP codes of LPG (GLP) start with 210203 (ANP product table). */
export const isGlp = (cProdANP: string): boolean => cProdANP.startsWith('210203');

/**
 * The `combustivel` group (API.md, icms rules 9 and 10): required by monofasic CST and, in NF-e, by
 * a fuel CFOP; GLP must be taxed in kg (authority rejection 854 is checked on the tax unit).
 */
export function checkCombustivel(item: Item, index: number, model: Model, unidadeTributavel: string): void {
  const mono = item.icms.cst === '02' || item.icms.cst === '61';
  if (!item.combustivel && (mono || (model === '55' && isFuelCfop(item.cfop)))) {
    throw new DomainError('COMBUSTIVEL_GRUPO_OBRIGATORIO', {
      item: index, campo: `items[${index}].combustivel`,
      motivo: mono ? `ICMS monofásico (CST ${item.icms.cst}) exige o grupo combustivel com o código ANP` : `CFOP de combustível ${item.cfop} exige o grupo combustivel`,
    });
  }
  if (item.combustivel && isGlp(item.combustivel.cProdANP) && unidadeTributavel.trim().toUpperCase() !== 'KG') {
    throw new DomainError('UNIDADE_TRIBUTAVEL_INVALIDA', {
      item: index, campo: `items[${index}].unidadeTributavel`, motivo: 'GLP exige unidade tributável kg (rejeição 854)', recebido: unidadeTributavel,
    });
  }
}

import type { Crt } from '../../issuer/types.js';
import { DomainError } from '../../errors/index.js';
import type { OpSimpNac } from '../types.js';

/**
 * API.md, NFS-e rule 7: an issuer with crt 2 (Simples with sublimit excess) must say in each
 * emission, assisted or not, how its taxes are computed (regApTribSN); nothing may guess it. With
 * crt 1 an omitted value is 1 (federal and municipal taxes computed by the Simples Nacional).
 * regApTribSN belongs to ME/EPP optants (opSimpNac 3, TSRegimeApuracaoSimpNac): the crt 1
 * derivation writes it only for them.
 */
export function resolveRegApTribSN(crt: Crt, opSimpNac: OpSimpNac, sent: 1 | 2 | 3 | undefined): 1 | 2 | 3 | undefined {
  if (sent !== undefined) return sent;
  if (crt === 2) throw new DomainError('CRT2_SEM_REGIME_APURACAO', { campo: 'dpsNacional.regApTribSN', crt });
  if (crt === 1 && opSimpNac === 3) return 1;
  return undefined;
}

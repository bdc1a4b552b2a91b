import { DomainError } from '../../errors/index.js';
import type { Rps } from '../types.js';

/**
 * API.md, NFS-e rule 2: the RPS (municipal ABRASF numbering) has no field in the national
 * standard, where the DPS number is allocated by the service per issuer and series. Any `rps.*`
 * sent refuses before numbering; an empty `rps: {}` carries nothing and passes.
 */
export function checkRps(rps: Rps | undefined): void {
  if (!rps) return;
  const campos = (Object.keys(rps) as (keyof Rps)[]).filter((k) => rps[k] !== undefined).map((k) => `rps.${k}`);
  if (campos.length) throw new DomainError('RPS_SEM_CAMPO_NO_PADRAO_NACIONAL', { campos });
}

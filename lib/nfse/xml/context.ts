import type { Ambiente } from '../../issuer/types.js';
import type { NfseIssuer } from '../types.js';

/**
 * Everything the DPS builder needs that is not in the checked DPS: who issues, the number already
 * allocated, the clock reading and the environment. Supplied by the emission service; the builder
 * reads no clock, no env and no random source.
 */
export interface DpsContext {
  issuer: NfseIssuer;
  /** nDPS: allocated by the service per issuer and series (API.md, NFS-e rule 2), 1-15 digits. */
  nDPS: number;
  /** dhEmi (TSDateTimeUTC): date-time with offset and no fraction, e.g. 2026-11-22T17:40:00-03:00. */
  dhEmi: string;
  tpAmb: Ambiente;
  /** verAplic: application version, 1-20. */
  verAplic: string;
}

import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config.js';

/**
 * The CA bundles an authority client trusts, shared by the NF-e and the Sefin Nacional clients:
 * the real authorities' chain (SEFAZ_CA_FILE, else Node's roots) and the simulator's CA (the
 * embedded one's, else SIMULATOR_CA_FILE or the standalone simulator's ca.pem).
 */
export class TrustStores {
  private authorityCa: string[] | undefined | null = null;

  constructor(private readonly config: AppConfig, private readonly simulator: () => { caPem: string } | null) {}

  /** undefined: Node's default roots. Read once: the file does not change under a running node. */
  authority(): string[] | undefined {
    if (this.authorityCa === null) {
      const file = this.config.sefaz.caFile;
      this.authorityCa = file ? [readFileSync(file, 'utf8')] : undefined;
    }
    return this.authorityCa;
  }

  /** Read on every call while no simulator runs here: a standalone simulator may write its CA after this node started. */
  simulatorCa(): string[] {
    const sim = this.simulator();
    if (sim) return [sim.caPem];
    const file = this.config.sefaz.simulatorCaFile ?? `${this.config.sefaz.simulatorDir}/ca.pem`;
    try { return [readFileSync(file, 'utf8')]; } catch { return []; }
  }
}

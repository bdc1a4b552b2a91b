import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../config.js';

const SIMULATOR_CA_REREAD_MS = 1_000;

/**
 * The CA bundles an authority client trusts, shared by the NF-e and the Sefin Nacional clients:
 * the real authorities' chain (SEFAZ_CA_FILE, else Node's roots) and the simulator's CA (the
 * embedded one's, else SIMULATOR_CA_FILE or the standalone simulator's ca.pem).
 */
export class TrustStores {
  private authorityCa: string[] | undefined | null = null;
  private simulatorFile: { pem: string[]; readAt: number } | undefined;

  constructor(private readonly config: AppConfig, private readonly simulator: () => { caPem: string } | null) {}

  /** undefined: Node's default roots. Read once: the file does not change under a running node. */
  authority(): string[] | undefined {
    if (this.authorityCa === null) {
      const file = this.config.sefaz.caFile;
      this.authorityCa = file ? [readFileSync(file, 'utf8')] : undefined;
    }
    return this.authorityCa;
  }

  /**
   * Read again at most once a second while no simulator runs here: a standalone simulator may
   * write (or rewrite) its CA after this node started. Not on every call: a note's transmission
   * used to open and read the file each time (issue 18). A missing file is looked for on every call.
   */
  simulatorCa(): string[] {
    const sim = this.simulator();
    if (sim) return [sim.caPem];
    const now = performance.now();
    if (this.simulatorFile && now - this.simulatorFile.readAt < SIMULATOR_CA_REREAD_MS) return this.simulatorFile.pem;
    const file = this.config.sefaz.simulatorCaFile ?? `${this.config.sefaz.simulatorDir}/ca.pem`;
    try {
      this.simulatorFile = { pem: [readFileSync(file, 'utf8')], readAt: now };
      return this.simulatorFile.pem;
    } catch {
      this.simulatorFile = undefined;
      return [];
    }
  }
}

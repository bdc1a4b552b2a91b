import { readFileSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { closeAllKnex, getKnex } from '../services/shared/database.js';
import { loadOrCreateSimulatorPki } from '../services/sefaz/simulator/pki.js';
import { SefazSimulator } from '../services/sefaz/simulator/server.js';
import { parseFaultSpec } from '../services/sefaz/simulator/faults.js';
import { loadOrCreateSandboxCa } from '../services/sefaz/simulator/sandbox-ca.js';

/**
 * Standalone authority simulator (`npm run simulator`) for multi-node deployments: the NF-e SOAP
 * services and Sefin Nacional (NFS-e, under /SefinNacional and /parametrizacao) on one port. Uses
 * the same database configuration (schema `simulator`), SIMULATOR_PORT (default 8443),
 * SIMULATOR_HOST, SIMULATOR_ADMIN_PORT, SIMULATOR_CLIENT_CA_FILE, SIMULATOR_FAULTS,
 * SIMULATOR_SEFIN_NAO_ADERENTES. Its CA is written to <SIMULATOR_DIR>/ca.pem: give that file to the
 * API nodes as SIMULATOR_CA_FILE. Outside production it trusts the sandbox CA
 * (`npm run admin -- test-certificate`) like the embedded one does.
 */
const config = loadConfig(process.env);
const s = config.sefaz;
const host = process.env.SIMULATOR_HOST ?? '0.0.0.0';
const simulator = new SefazSimulator({
  knex: await getKnex(config),
  pki: loadOrCreateSimulatorPki(s.simulatorDir, (process.env.SIMULATOR_HOSTNAMES ?? 'localhost,127.0.0.1').split(',')),
  clientCaPems: [
    ...(s.simulatorClientCaFile ? [readFileSync(s.simulatorClientCaFile, 'utf8')] : []),
    ...(config.env !== 'production' ? [loadOrCreateSandboxCa(s.simulatorDir).certPem] : []),
  ],
  host,
  port: s.simulatorPort || 8443,
  adminPort: s.simulatorAdminPort,
  faults: s.simulatorFaults.map(parseFaultSpec),
  sefinNonAdherent: s.simulatorSefinNonAdherent,
  log: (msg, extra) => console.error(msg, extra ?? ''),
});
await simulator.start();
console.log(`SEFAZ and Sefin Nacional simulator at ${simulator.url} (Sefin: ${simulator.url}/SefinNacional; admin ${simulator.adminUrl}); CA: ${s.simulatorDir}/ca.pem`);
const shutdown = async () => { await simulator.stop(); await closeAllKnex(); process.exit(0); };
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

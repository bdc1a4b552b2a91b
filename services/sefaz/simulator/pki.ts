import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCa, createServerCert } from './test-certificates.js';

/**
 * The simulator's own CA and TLS server certificate. Generated once into `dir` (var/simulator) so a
 * standalone simulator and its clients agree across restarts; clients trust `ca.pem`.
 */
export interface SimulatorPki {
  caPem: string;
  keyPem: string;
  certPem: string;
}

/** A fresh CA and a TLS server certificate for `hosts`; the CA key is discarded (nothing else is signed by it). */
export function createSimulatorPki(hosts: string[] = ['localhost', '127.0.0.1']): SimulatorPki {
  const ca = createCa('Simulador SEFAZ CA');
  const server = createServerCert(ca, hosts);
  return { caPem: ca.certPem, keyPem: server.keyPem, certPem: server.certPem };
}

export function loadOrCreateSimulatorPki(dir: string, hosts?: string[]): SimulatorPki {
  const files = { caPem: resolve(dir, 'ca.pem'), keyPem: resolve(dir, 'server-key.pem'), certPem: resolve(dir, 'server.pem') };
  if (existsSync(files.caPem) && existsSync(files.keyPem) && existsSync(files.certPem)) {
    return { caPem: readFileSync(files.caPem, 'utf8'), keyPem: readFileSync(files.keyPem, 'utf8'), certPem: readFileSync(files.certPem, 'utf8') };
  }
  const pki = createSimulatorPki(hosts);
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.caPem, pki.caPem);
  writeFileSync(files.keyPem, pki.keyPem, { mode: 0o600 });
  writeFileSync(files.certPem, pki.certPem);
  return pki;
}

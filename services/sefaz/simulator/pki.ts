import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import forge from 'node-forge';

/**
 * The simulator's own CA and TLS server certificate. Generated once into `dir` (var/simulator) so a
 * standalone simulator and its clients agree across restarts; clients trust `ca.pem`.
 */
export interface SimulatorPki {
  caPem: string;
  keyPem: string;
  certPem: string;
}

function keyPair() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  return { key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), keyPem };
}

// DER serial: positive and minimal (first byte 01..7f).
const serial = () => '01' + randomBytes(8).toString('hex');

export function createSimulatorPki(hosts: string[] = ['localhost', '127.0.0.1']): SimulatorPki {
  const ca = keyPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.publicKey;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = new Date(Date.now() - 86_400_000);
  caCert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const caName = [{ name: 'commonName', value: 'Simulador SEFAZ CA' }, { name: 'countryName', value: 'BR' }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
  caCert.sign(ca.key, forge.md.sha256.create());

  const srv = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = srv.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 5 * 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: hosts[0]! }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: hosts.map((h) => (/^\d+\.\d+\.\d+\.\d+$/.test(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(caCert), keyPem: srv.keyPem, certPem: forge.pki.certificateToPem(cert) };
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

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { caFromPem, createA1, createCa, type A1, type TestCa } from './test-certificates.js';

/**
 * The sandbox CA: stands in for ICP-Brasil so a developer can try the whole flow without a real
 * A1. Kept under the simulator's directory; the embedded simulator trusts it for client
 * certificates (outside production), and `npm run admin -- test-certificate` issues e-CNPJ A1
 * certificates from it. A real authority never accepts these.
 */
export function loadOrCreateSandboxCa(dir: string): TestCa {
  const keyFile = resolve(dir, 'sandbox-ca-key.pem');
  const certFile = resolve(dir, 'sandbox-ca.pem');
  if (existsSync(keyFile) && existsSync(certFile)) return caFromPem(readFileSync(keyFile, 'utf8'), readFileSync(certFile, 'utf8'));
  const ca = createCa('AC Sandbox Fiscal API (nao ICP-Brasil)');
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
  writeFileSync(certFile, ca.certPem);
  return ca;
}

export function issueSandboxA1(dir: string, opts: { cnpj: string; razaoSocial?: string; password: string; days?: number }): A1 & { notAfter: string } {
  const notAfter = new Date(Date.now() + (opts.days ?? 365) * 86_400_000);
  const a1 = createA1(loadOrCreateSandboxCa(dir), { cnpj: opts.cnpj, razaoSocial: opts.razaoSocial, password: opts.password, notAfter });
  return { ...a1, notAfter: notAfter.toISOString() };
}

import type { SigningMaterial } from '../../../../lib/issuer/types.js';
import { createA1, createCa } from '../test-certificates.js';

/**
 * The certificate the simulated Sefin signs NFS-e and events with: made once per process by its
 * own CA (the signature is checked against the certificate in KeyInfo; no one trusts this CA).
 * CNPJ 00394460000141 is the Receita Federal's, whose Sefin Nacional signs the real ones.
 */
let material: SigningMaterial | null = null;

export function sefinSigningMaterial(): SigningMaterial {
  if (!material) {
    const ca = createCa('Simulador Sefin Nacional CA');
    const a1 = createA1(ca, { cnpj: '00394460000141', razaoSocial: 'SEFIN NACIONAL NFS-E SIMULADOR' });
    material = { issuerId: 'sefin-simulator', fingerprint: `sefin-simulator-${Date.now()}`, keyPem: a1.keyPem, certPem: a1.certPem, chainPem: [], notAfter: new Date(Date.now() + 365 * 86_400_000).toISOString() };
  }
  return material;
}

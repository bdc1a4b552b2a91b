import { createA1, createCa, type A1 } from './certificates.js';
import { nfseScenarios } from './nfse-scenarios.js';
import { signedCancellation, signedDps } from './sefin.js';

/**
 * The signed documents the Sefin simulator checks, one per shape: the DPS of every NFS-e scenario
 * (each fills other groups of the layout) and a pedido de registro de evento, signed as this
 * product signs them. Made once per test process (the A1's key is generated).
 */
export interface SignedShape { name: string; xml: string; id: string; a1: A1 }

let shapes: SignedShape[] | null = null;

export function signedDpsShapes(): SignedShape[] {
  if (!shapes) {
    const a1 = createA1(createCa(), { cnpj: '12345678000195' });
    const now = new Date('2026-11-20T12:00:00Z');
    shapes = nfseScenarios().map((scenario, i) => {
      const dps = signedDps(a1, { nDPS: i + 1, now, scenario });
      return { name: `DPS ${scenario.name}`, xml: dps.xml, id: dps.id, a1 };
    });
    const chave = '35503082212345678000195000000000000126110000000012';
    shapes.push({ name: 'pedRegEvento e101101', xml: signedCancellation(a1, chave, now), id: `PRE${chave}101101`, a1 });
  }
  return shapes;
}

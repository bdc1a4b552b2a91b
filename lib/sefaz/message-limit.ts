import { buildEnviNFe } from './messages.js';

/**
 * The largest message the authority accepts: the content of nfeDadosMsg over 500 KB is refused
 * with cStat 214 "Rejeição: Tamanho da mensagem excedeu o limite estabelecido" (MOC 4.00, §3.2.1,
 * message size limit; the simulator refuses the same, services/sefaz/simulator/server.ts).
 */
export const MAX_MESSAGE_BYTES = 500 * 1024;

/** enviNFe's own bytes around one NFe, with the longest idLote (15 digits). */
const ENVI_NFE_OVERHEAD_BYTES = Buffer.byteLength(buildEnviNFe({ idLote: '9'.repeat(15), signedNfeXml: '' }));

/** The bytes of the enviNFe that carries `nfeXml` (an NFe element, no XML declaration). */
export function enviNfeBytes(nfeXml: string): number {
  return ENVI_NFE_OVERHEAD_BYTES + Buffer.byteLength(nfeXml);
}

import { leaf, raw } from '../../xml/writer.js';
import { NFSE_NS } from './dps-facts.js';
import { NFSE_VERSION, SIMULATOR_VER_APLIC } from './nfse-xml.js';

/**
 * The evento Sefin registers from a pedido de registro de evento (TCEvento of evento_v1.01.xsd):
 * infEvento (Id "EVT" + chave + tipo + nSeq) with the received pedRegEvento embedded whole, then
 * Sefin's signature over infEvento. Canonical by construction, like the NFS-e (nfse-xml.ts).
 */
export interface EventoInput {
  chaveAcesso: string;
  tipoEvento: string;
  nSeqEvento: number;
  dhProc: string;
  nDFSe: number;
  /** pedRegEvento in C14N, without its xmlns declaration. */
  pedRegEventoCanonical: string;
}

export function buildInfEvento(i: EventoInput): { id: string; element: string; canonical: string } {
  const id = `EVT${i.chaveAcesso}${i.tipoEvento}${String(i.nSeqEvento).padStart(3, '0')}`;
  const inner = [
    leaf('verAplic', SIMULATOR_VER_APLIC),
    leaf('ambGer', 2),
    leaf('nSeqEvento', i.nSeqEvento),
    leaf('dhProc', i.dhProc),
    leaf('nDFSe', i.nDFSe),
  ].join('') + i.pedRegEventoCanonical;
  return { id, element: raw('infEvento', inner, { Id: id }), canonical: raw('infEvento', inner, { Id: id }, { xmlns: NFSE_NS }) };
}

export function assembleEvento(infEventoElement: string, signatureXml: string): string {
  return raw('evento', infEventoElement + signatureXml, { versao: NFSE_VERSION }, { xmlns: NFSE_NS });
}


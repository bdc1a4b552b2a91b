/**
 * The DACCe (printable Carta de Correção Eletrônica) view model: read from the registered
 * procEventoNFe (evento + retEvento, tpEvento 110110) and, for the parties and the note's identity,
 * from the note's own view (lib/danfe/view-model.ts). There is no official DACCe layout; the
 * fields are those of the CC-e event (MOC 4.00 Anexo II, Evento Carta de Correção: xCorrecao,
 * xCondUso, nSeqEvento) and of its registration, as the printed CC-e of ACBr and sped-da show.
 */
import { XmlDocument, XmlElement } from 'libxml2-wasm';
import { NFE_NS } from '../sefaz/services.js';
import type { DanfeParty, DanfeView } from './view-model.js';
import { parseXml } from '../xml/parse.js';

export const CCE_EVENT = '110110';

export interface DacceView {
  accessKey: string;
  /** From the access key (positions 21-22, 23-25, 26-34: MOC 4.00, 5.4). */
  modelo: string;
  serie: number;
  numero: number;
  tpAmb: 1 | 2;
  cOrgao: string;
  /** CNPJ or CPF of the event's author (the issuer). */
  autor: string;
  dhEvento: string;
  sequencia: number;
  correcao: string;
  condicaoUso: string;
  registro: { protocolo: string; dhRegEvento: string; cStat: string; xMotivo: string } | null;
  /** From the note when its XML is at hand (always, for a CC-e the API registered). */
  nota: { dhEmi: string; emitente: DanfeParty; destinatario: DanfeParty | null } | null;
}

function child(el: XmlElement | null, name: string): XmlElement | null {
  if (!el) return null;
  for (let c = el.firstChild; c; c = c.next) if (c instanceof XmlElement && c.name === name && c.namespaceUri === NFE_NS) return c;
  return null;
}
const text = (el: XmlElement | null, name: string): string => child(el, name)?.content.trim() ?? '';

/** Throws on XML that is not the procEventoNFe of a CC-e. */
export function buildDacceView(procEvento: string, note: DanfeView | null = null): DacceView {
  let doc: XmlDocument;
  try {
    doc = parseXml(procEvento);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
  try {
    const root = doc.root;
    const evento = root.name === 'evento' ? root : child(root, 'evento');
    const inf = child(evento, 'infEvento');
    if (!inf) throw new Error('not an NF-e event: no infEvento');
    const tpEvento = text(inf, 'tpEvento');
    if (tpEvento !== CCE_EVENT) throw new Error(`not a CC-e: tpEvento ${tpEvento}`);
    const det = child(inf, 'detEvento');
    const ret = child(child(root, 'retEvento'), 'infEvento');
    const key = text(inf, 'chNFe');
    const registered = ret && ['135', '136'].includes(text(ret, 'cStat'));
    return {
      accessKey: key,
      modelo: key.slice(20, 22),
      serie: Number(key.slice(22, 25)),
      numero: Number(key.slice(25, 34)),
      tpAmb: text(inf, 'tpAmb') === '1' ? 1 : 2,
      cOrgao: text(inf, 'cOrgao'),
      autor: text(inf, 'CNPJ') || text(inf, 'CPF'),
      dhEvento: text(inf, 'dhEvento'),
      sequencia: Number(text(inf, 'nSeqEvento')),
      correcao: text(det, 'xCorrecao'),
      condicaoUso: text(det, 'xCondUso'),
      registro: registered ? { protocolo: text(ret, 'nProt'), dhRegEvento: text(ret, 'dhRegEvento'), cStat: text(ret, 'cStat'), xMotivo: text(ret, 'xMotivo') } : null,
      nota: note ? { dhEmi: note.dhEmi, emitente: note.emitente, destinatario: note.destinatario } : null,
    };
  } finally {
    doc.dispose();
  }
}

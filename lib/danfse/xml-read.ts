/**
 * Reading the NFS-e XML for the DANFSe: children by path in the NFS-e namespace (never a deep
 * search, so the taker's CNPJ can never be read from the intermediary), and the people of the
 * document (emit, toma, interm) with their address as the DANFSe prints it.
 */
import { XmlElement } from 'libxml2-wasm';
import { NFSE_NS } from '../nfse/xml/dps.js';
import { municipality } from '../issuer/municipalities.js';

/** The element at `path` ("valores/trib/tribMun") under `el`, each step the first child of that name. */
export function child(el: XmlElement | null, path: string): XmlElement | null {
  let at = el;
  for (const name of path.split('/')) {
    if (!at) return null;
    let next: XmlElement | null = null;
    for (let c = at.firstChild; c; c = c.next) {
      if (c instanceof XmlElement && c.namespaceUri === NFSE_NS && c.name === name) { next = c; break; }
    }
    at = next;
  }
  return at;
}

/** The trimmed text at `path`, or '' when absent. */
export const text = (el: XmlElement | null, path: string): string => child(el, path)?.content.trim() ?? '';

export interface DanfsePartyView {
  nome: string;
  /** CNPJ, CPF or NIF as in the XML (the renderers mask CNPJ/CPF). */
  documento: string;
  im: string;
  endereco: string;
  /** "Município - UF", or city and country for a foreign address. */
  municipio: string;
  cep: string;
  fone: string;
  email: string;
}

/** "Curitiba - PR" from the IBGE code (data/ibge); the bare code when the table does not know it. */
export function municipioUf(cMun: string): string {
  if (!cMun) return '';
  const m = municipality(cMun);
  return m ? `${m.nome} - ${m.uf}` : cMun;
}

/**
 * A person of the DPS (TCInfoPessoa: toma, interm) or the issuer of the NFS-e (TCEmitente: emit,
 * whose address is enderNac with UF). Null when the group is absent.
 */
export function party(el: XmlElement | null): DanfsePartyView | null {
  if (!el) return null;
  const end = child(el, 'end') ?? child(el, 'enderNac');
  const ext = child(end, 'endExt');
  const cMun = text(end, 'endNac/cMun') || text(end, 'cMun');
  const street = [text(end, 'xLgr'), text(end, 'nro'), text(end, 'xCpl'), text(end, 'xBairro')].filter(Boolean).join(', ');
  return {
    nome: text(el, 'xNome'),
    documento: text(el, 'CNPJ') || text(el, 'CPF') || text(el, 'NIF') || (text(el, 'cNaoNIF') ? 'NIF não informado' : ''),
    im: text(el, 'IM'),
    endereco: street,
    municipio: ext ? [text(ext, 'xCidade'), text(ext, 'xEstProvReg'), text(ext, 'cPais')].filter(Boolean).join(' - ') : municipioUf(cMun),
    cep: ext ? text(ext, 'cEndPost') : text(end, 'endNac/CEP') || text(end, 'CEP'),
    fone: text(el, 'fone'),
    email: text(el, 'email'),
  };
}

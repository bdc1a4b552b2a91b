import { DomainError } from '../../errors/index.js';
import type { Signer } from '../../sign/signer.js';
import { validateXml } from '../../xml/xsd.js';
import { NFSE_SCHEMAS } from '../../xml/schemas.js';
import { el, leaf, raw, trusted } from '../../xml/writer.js';
import { NFSE_NS } from './dps.js';

/** cMotivo (TSCodJustCanc): 1 erro na emissão, 2 serviço não prestado, 9 outros. */
export type CancelMotivo = 1 | 2 | 9;

export interface CancelEventInput {
  tpAmb: 1 | 2;
  verAplic: string;
  /** dhEvento (TSDateTimeUTC): with offset, no fraction; the caller reads the clock. */
  dhEvento: string;
  /** The issuer (provider) is the author: CNPJAutor, or CPFAutor for 11 digits. */
  autor: string;
  /** chNFSe: the 50-digit access key Sefin assigned. */
  chaveAcesso: string;
  cMotivo: CancelMotivo;
  /** xMotivo (TSMotivo): 15-255 characters, written as sent. */
  xMotivo: string;
}

export interface SignedEvent {
  xml: string;
  id: string;
}

const TIPO_CANCELAMENTO = '101101';

/**
 * pedRegEvento with infPedReg for e101101 "Cancelamento de NFS-e" (tiposEventos_v1.01.xsd,
 * TCInfPedReg: tpAmb, verAplic, dhEvento, CNPJAutor|CPFAutor, chNFSe, e101101 {xDesc, cMotivo,
 * xMotivo}), Id "PRE" + chave (50) + tipo (6) (TSIdPedRegEvt), signed like the DPS (enveloped,
 * C14N, the issuer's A1) and checked against pedRegEvento_v1.01.xsd. XML_FORA_DO_ESQUEMA on failure:
 * nothing refused here is ever sent.
 */
export function buildSignedCancelEvent(input: CancelEventInput, signer: Signer): SignedEvent {
  if (!/^\d{50}$/.test(input.chaveAcesso)) throw new RangeError(`chaveAcesso must be 50 digits: ${input.chaveAcesso}`);
  const id = `PRE${input.chaveAcesso}${TIPO_CANCELAMENTO}`;
  const inner = [
    leaf('tpAmb', input.tpAmb),
    leaf('verAplic', input.verAplic),
    leaf('dhEvento', input.dhEvento),
    input.autor.length === 14 ? leaf('CNPJAutor', input.autor) : leaf('CPFAutor', input.autor),
    leaf('chNFSe', input.chaveAcesso),
    el('e101101', [leaf('xDesc', 'Cancelamento de NFS-e'), leaf('cMotivo', input.cMotivo), leaf('xMotivo', input.xMotivo)]),
  ].join('');
  const element = raw('infPedReg', inner, { Id: id });
  const canonical = raw('infPedReg', inner, { Id: id }, { xmlns: NFSE_NS });
  const { signatureXml } = signer.sign(canonical, id);
  const xml = raw('pedRegEvento', element + trusted(signatureXml), { versao: '1.01' }, { xmlns: NFSE_NS });
  const result = validateXml(NFSE_SCHEMAS.pedRegEvento, xml);
  if (!result.valid) throw new DomainError('XML_FORA_DO_ESQUEMA', { errors: result.errors.map((message) => ({ field: 'xml', message })) });
  return { xml, id };
}

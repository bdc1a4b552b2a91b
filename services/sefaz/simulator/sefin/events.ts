import type { XmlElement } from 'libxml2-wasm';
import { brasiliaDateTime } from '../../../../lib/sefaz/xml.js';
import { toGzipBase64 } from '../../../../lib/sefin/payload.js';
import { NFSE_NS } from '../../../../lib/sefin/simulator/dps-facts.js';
import { assembleEvento, buildInfEvento } from '../../../../lib/sefin/simulator/event-xml.js';
import { ruleMessage } from '../../../../lib/sefin/simulator/messages.js';
import { receiveDocument } from '../../../../lib/sefin/simulator/reception.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { canonicalSubtree } from '../../../../lib/xml/c14n.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import type { RouteContext } from '../router.js';
import { head, json, jsonBody, rejection, type SefinContext } from './http.js';

/**
 * POST /SefinNacional/nfse/{chave}/eventos: the cancellation (e101101) of an NFS-e. Reception
 * rules and signature as for the DPS (E12xx, E0714, E0715); the author must be the NFS-e's issuer
 * and sign with its own certificate (E0718). The event rules of the national standard (Anexo II)
 * are not in the reference set, so the simulator refuses no further with invented codes: an event
 * type other than cancellation is E1242, an unknown NFS-e 404, and a cancellation repeated for an
 * NFS-e already canceled answers the event registered the first time.
 */
const NS = { n: NFSE_NS };
const CANCELLATION = 'e101101';

export async function handleEvent(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const body = await jsonBody(ctx, now);
  if (!body) return;
  if (!s.clientCnpj) return rejection(ctx.res, 2, now, [ruleMessage('E1209')]);
  const received = receiveDocument(body.pedidoRegistroEventoXmlGZipB64, 'pedRegEvento', NFSE_SCHEMAS.pedRegEvento);
  if (!received.ok) return rejection(ctx.res, 2, now, [received.erro]);
  const { doc } = received;
  try {
    const inf = doc.root.get('n:infPedReg', NS) as XmlElement;
    const t = (p: string) => inf.get(p, NS)?.content;
    const id = inf.attrs.find((a) => a.name === 'Id')?.value ?? '';
    const tpAmb = t('n:tpAmb') === '1' ? 1 : 2;
    const chave = t('n:chNFSe') ?? '';
    const author = t('n:CNPJAutor') ?? t('n:CPFAutor');
    const reject = (codigo: string, complemento?: string) => rejection(ctx.res, tpAmb, now, [ruleMessage(codigo, complemento)]);
    const kind = inf.get(`n:${CANCELLATION}`, NS) ? CANCELLATION : null;
    if (!kind) return reject('E1242', 'o simulador registra apenas o cancelamento (e101101)');
    if (chave !== ctx.params.chave) return reject('E1235', `chNFSe ${chave} difere da chave do caminho`);
    const sig = verifyEnvelopedSignature({ doc, text: received.xml }, id, s.deps.certificates.certificate);
    if (!sig.valid) return reject('E0714', sig.reason);
    const cert = sig.certificate!;
    if (Date.parse(cert.validTo) < now.getTime() || Date.parse(cert.validFrom) > now.getTime()) return reject('E0715', 'fora da validade');
    const nfse = await s.deps.store.byChave(chave);
    if (!nfse) {
      json(ctx.res, 404, { ...head(tpAmb, now), erro: { codigo: null, descricao: 'Chave de acesso não encontrada.' } });
      return;
    }
    if (s.deps.certificates.cnpj(sig.certificateBase64!) !== author || author !== nfse.cnpj_cpf) return reject('E0718');
    const tipoEvento = kind.slice(1);
    const pedCanonical = canonicalSubtree(doc, doc.root).replace(` xmlns="${NFSE_NS}"`, '');
    const eventoXml = await s.deps.store.serializedNfse(chave, async (store) => {
      const existing = await store.event(chave, tipoEvento, 1);
      if (existing) return existing.evento_xml;
      const inf = buildInfEvento({ chaveAcesso: chave, tipoEvento, nSeqEvento: 1, dhProc: brasiliaDateTime(now), nDFSe: await store.nextDfse(), pedRegEventoCanonical: pedCanonical });
      const xml = assembleEvento(inf.element, s.signer.sign(inf.canonical, inf.id).signatureXml);
      await store.insertEvent({ chave_acesso: chave, tipo_evento: tipoEvento, n_seq: 1, processed_at: now, evento_xml: xml });
      await store.cancel(chave);
      return xml;
    });
    json(ctx.res, 201, { ...head(tpAmb, now), eventoXmlGZipB64: toGzipBase64(eventoXml) });
  } finally {
    doc.dispose();
  }
}

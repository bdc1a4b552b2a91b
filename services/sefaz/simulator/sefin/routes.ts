import { randomInt } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { municipality } from '../../../../lib/issuer/municipalities.js';
import { clientCnpjOf } from '../client-cnpj.js';
import { brasiliaDateTime } from '../../../../lib/sefaz/xml.js';
import { toGzipBase64 } from '../../../../lib/sefin/payload.js';
import type { SefinMessage } from '../../../../lib/sefin/results.js';
import { buildChaveNfse, isValidChaveNfse } from '../../../../lib/sefin/simulator/chave.js';
import { dpsFacts, NFSE_NS } from '../../../../lib/sefin/simulator/dps-facts.js';
import { ruleMessage, ruleText } from '../../../../lib/sefin/simulator/messages.js';
import { assembleNfse, buildInfNfse } from '../../../../lib/sefin/simulator/nfse-xml.js';
import { receiveDocument } from '../../../../lib/sefin/simulator/reception.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { canonicalSubtree } from '../../../../lib/xml/c14n.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import type { FaultMode } from '../faults.js';
import type { RouteContext, Router } from '../router.js';
import { emitenteOf } from './emitente.js';
import { handleEvent } from './events.js';
import { head, json, jsonBody, rejection, type SefinContext, type SefinSimulatorDeps } from './http.js';

/**
 * The simulated Sefin Nacional, on the simulator's HTTPS server (mutual TLS, the same CAs):
 *   POST /SefinNacional/nfse                                   DPS → NFS-e (201) or erros[] (400)
 *   GET|HEAD /SefinNacional/dps/{idDps}                        chaveAcesso of the DPS's NFS-e, 404 none
 *   GET  /SefinNacional/nfse/{chave}                           the NFS-e, 404 none
 *   POST /SefinNacional/nfse/{chave}/eventos                   pedRegEvento → evento (201) or erros[]
 *   GET  /SefinNacional/nfse/{chave}/eventos/{tipo}/{nSeq}     a registered event, 404 none
 *   GET  /parametrizacao/parametros_municipais/{cMun}/convenio adherence of a municipality
 * JSON in and out, documents gzip + base64. Faults name these services: SefinNfse, SefinDps,
 * SefinConsulta, SefinEventos, SefinConvenio (a fault without `service` hits them all).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerSefinRoutes(router: Router, deps: SefinSimulatorDeps): void {
  const signer = createSigner(deps.signing);
  const route = (method: string, pattern: RegExp, keys: string[], service: string, handler: (ctx: RouteContext, s: SefinContext) => Promise<void>) => {
    router.add(method, pattern, keys, async (ctx) => {
      const clientCnpj = clientCnpjOf(ctx.req.socket as TLSSocket);
      const take = (mode: FaultMode) => deps.faults.take(mode, null, service);
      if (take('timeout-before-processing')) return; // hold: no 100 Continue, no answer
      if (take('down')) {
        ctx.res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('Service Unavailable');
        return;
      }
      const slow = take('slow');
      // As the SEFAZ routes do: the request is received (100 Continue, body read) and then held,
      // so a delay is the authority processing, not a client left waiting to send.
      if (slow) { await ctx.body().catch(() => ''); await sleep(slow.delayMs ?? 2_000); }
      const drop = take('drop-after-processing');
      // Processed and committed, then the connection goes before any byte of the answer.
      if (drop) ctx.res.end = (() => { ctx.req.socket.destroy(); return ctx.res; }) as typeof ctx.res.end;
      await handler(ctx, { deps, signer, clientCnpj });
    });
  };
  route('POST', /^\/SefinNacional\/nfse$/, [], 'SefinNfse', submit);
  route('GET', /^\/SefinNacional\/dps\/([^/]+)$/, ['idDps'], 'SefinDps', consultDps);
  route('HEAD', /^\/SefinNacional\/dps\/([^/]+)$/, ['idDps'], 'SefinDps', consultDps);
  route('GET', /^\/SefinNacional\/nfse\/(\d+)$/, ['chave'], 'SefinConsulta', consultNfse);
  route('POST', /^\/SefinNacional\/nfse\/(\d+)\/eventos$/, ['chave'], 'SefinEventos', handleEvent);
  route('GET', /^\/SefinNacional\/nfse\/(\d+)\/eventos\/(\d{6})\/(\d{1,3})$/, ['chave', 'tipo', 'nSeq'], 'SefinConsulta', consultEvent);
  route('GET', /^\/parametrizacao\/parametros_municipais\/(\d+)\/convenio$/, ['cMun'], 'SefinConvenio', convenio);
}

async function submit(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const body = await jsonBody(ctx, now);
  if (!body) return;
  if (!s.clientCnpj) return rejection(ctx.res, 2, now, [ruleMessage('E1209')]);
  const received = receiveDocument(body.dpsXmlGZipB64, 'DPS', NFSE_SCHEMAS.dps);
  if (!received.ok) return rejection(ctx.res, 2, now, [received.erro]);
  const { doc } = received;
  try {
    const dps = dpsFacts(doc);
    const tpAmb = Number(dps.tpAmb);
    const reject = (erro: SefinMessage) => rejection(ctx.res, tpAmb, now, [erro], { idDPS: dps.id });
    const sig = verifyEnvelopedSignature({ doc, text: received.xml }, dps.id, s.deps.certificates.certificate);
    if (!sig.valid) return reject(ruleMessage('E0714', sig.reason));
    const cert = sig.certificate!;
    if (Date.parse(cert.validTo) < now.getTime() || Date.parse(cert.validFrom) > now.getTime()) return reject(ruleMessage('E0715', 'fora da validade'));
    const signerCnpj = s.deps.certificates.cnpj(sig.certificateBase64!);
    const prestador = dps.prest.cnpj ?? dps.prest.cpf;
    if (!signerCnpj || signerCnpj !== prestador) return reject(ruleMessage('E0718'));
    const expectedId = `DPS${dps.cLocEmi}${dps.prest.cnpj ? '2' : '1'}${(prestador ?? '').padStart(14, '0')}${dps.serie.padStart(5, '0')}${dps.nDPS.padStart(15, '0')}`;
    if (dps.id !== expectedId) return reject(ruleMessage('E0004', `esperado ${expectedId}`));
    if (Date.parse(dps.dhEmi) > now.getTime()) return reject(ruleMessage('E0008'));
    if (!adheres(s, dps.cLocEmi)) return reject(ruleMessage('E0037'));

    // The DPS as it will sit inside the NFS-e: its C14N, inheriting the NFS-e's namespace.
    const dpsCanonical = canonicalSubtree(doc, doc.root).replace(` xmlns="${NFSE_NS}"`, '');
    const dhProc = brasiliaDateTime(now);
    const outcome = await s.deps.store.generateNfse(dps.id, tpAmb, prestador!, ({ nNFSe, nDFSe }) => {
      const chaveAcesso = buildChaveNfse({
        cLocEmi: dps.cLocEmi, ambGer: '2', cnpjOrCpf: prestador!, nNFSe, aamm: dhProc.slice(2, 4) + dhProc.slice(5, 7), cNum: randomInt(1, 1_000_000_000),
      });
      const inf = buildInfNfse({ dps, dpsCanonical, chaveAcesso, nNFSe, nDFSe, dhProc, emitente: emitenteOf(dps, cert) });
      const nfseXml = assembleNfse(inf.element, s.signer.sign(inf.canonical, inf.id).signatureXml);
      return { chave_acesso: chaveAcesso, id_dps: dps.id, tp_amb: tpAmb, cnpj_cpf: prestador!, n_nfse: String(nNFSe), status: 'gerada', processed_at: now, nfse_xml: nfseXml };
    });
    if ('duplicate' in outcome) return reject(ruleMessage('E0014', `chaveAcesso ${outcome.duplicate}`));
    json(ctx.res, 201, { ...head(tpAmb, now), idDps: dps.id, chaveAcesso: outcome.row.chave_acesso, nfseXmlGZipB64: toGzipBase64(outcome.row.nfse_xml), alertas: [] });
  } finally {
    doc.dispose();
  }
}

/** Sefin's answer to a read of something it does not have (a lowercase `erro`, as its reads write it). */
function notFound(ctx: RouteContext, now: Date, descricao: string): void {
  if (ctx.req.method === 'HEAD') { ctx.res.writeHead(404).end(); return; }
  json(ctx.res, 404, { ...head(2, now), erro: { codigo: null, descricao } });
}

async function consultDps(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const row = /^DPS\d{42}$/.test(ctx.params.idDps!) ? await s.deps.store.byDpsAnyEnvironment(ctx.params.idDps!) : undefined;
  if (!row) return notFound(ctx, now, 'DPS sem NFS-e gerada.');
  if (ctx.req.method === 'HEAD') { ctx.res.writeHead(200).end(); return; }
  json(ctx.res, 200, { ...head(row.tp_amb, now), idDps: row.id_dps, chaveAcesso: row.chave_acesso });
}

async function consultNfse(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const chave = ctx.params.chave!;
  const row = isValidChaveNfse(chave) ? await s.deps.store.byChave(chave) : undefined;
  if (!row) return notFound(ctx, now, 'Chave de acesso não encontrada.');
  json(ctx.res, 200, { ...head(row.tp_amb, now), chaveAcesso: row.chave_acesso, nfseXmlGZipB64: toGzipBase64(row.nfse_xml) });
}

async function consultEvent(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const ev = await s.deps.store.event(ctx.params.chave!, ctx.params.tipo!, Number(ctx.params.nSeq));
  if (!ev) return notFound(ctx, now, 'Evento não encontrado.');
  json(ctx.res, 200, { ...head(2, now), eventoXmlGZipB64: toGzipBase64(ev.evento_xml) });
}

/** The convênio table: every IBGE municipality adheres unless configured otherwise; a code IBGE does not know never does. */
function adheres(s: SefinContext, cMun: string): boolean {
  return municipality(cMun) !== undefined && !s.deps.nonAdherent.has(cMun);
}

async function convenio(ctx: RouteContext, s: SefinContext): Promise<void> {
  const now = s.deps.now();
  const cMun = ctx.params.cMun!;
  if (!municipality(cMun)) {
    json(ctx.res, 404, { parametrosConvenio: null, mensagem: ruleText('E0037'), dataHoraProcessamento: brasiliaDateTime(now) });
    return;
  }
  const aderente = adheres(s, cMun);
  json(ctx.res, 200, {
    parametrosConvenio: {
      aderenteAmbienteNacional: aderente ? 1 : 0, aderenteEmissorNacional: aderente ? 1 : 0,
      situacaoEmissaoPadraoContribuintesRFB: aderente ? 1 : 0, aderenteMAN: 0, permiteAproveitametoDeCreditos: false,
    },
    // The non-adherent answer carries the rule Sefin applies to such a DPS (E0037), verbatim.
    mensagem: aderente ? 'Parâmetros do convênio recuperados com sucesso.' : ruleText('E0037'),
    dataHoraProcessamento: brasiliaDateTime(now),
  });
}

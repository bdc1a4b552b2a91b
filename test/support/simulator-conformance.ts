import https from 'node:https';
import knexFactory, { type Knex } from 'knex';
import { createA1, createCa, type A1, type TestCa } from './certificates.js';
import { createTestDatabase } from './stack.js';
import { signXml } from './xml-sign.js';
import { sampleNfe, type SampleOptions } from './sample-nfe.js';
import { SefazSimulator } from '../../services/sefaz/simulator/server.js';
import { createSimulatorPki } from '../../services/sefaz/simulator/pki.js';
import { buildConsSitNFe, buildConsStatServ, buildEnvEvento, buildEnviNFe, buildInutNFe, type EventDetail } from '../../lib/sefaz/messages.js';
import { soapPayload } from '../../lib/sefaz/soap.js';
import { validateXml } from '../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../lib/xml/schemas.js';
import { WSDL_NS_BASE, type SefazService } from '../../lib/sefaz/services.js';

/**
 * The standalone simulator driven the way any partner's software drives it: raw SOAP envelopes over
 * mutual TLS, in whatever variant, to the authorities' own paths. Signing material comes from a test
 * CA the simulator trusts (as it trusts ICP-Brasil), plus certificates that break one thing each.
 */
export const CNPJ = '11222333000181';
export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';

export interface Answer { status: number; contentType: string; body: string }

export interface ConformanceSim {
  sim: SefazSimulator;
  knex: Knex;
  ca: TestCa;
  a1: A1;
  /** The simulator's clock; tests move it. */
  clock: { now: Date };
  post(path: string, body: string, opts?: { contentType?: string; soapAction?: string; host?: string; client?: A1 }): Promise<Answer>;
  stop(): Promise<void>;
}

/** `ca`: the CA the simulator trusts for clients and signers (e.g. the sandbox CA); a fresh test CA by default. */
export async function startConformanceSim(opts: { ca?: TestCa } = {}): Promise<ConformanceSim> {
  const db = await createTestDatabase();
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 4 } });
  const ca = opts.ca ?? createCa();
  const a1 = createA1(ca, { cnpj: CNPJ });
  const clock = { now: new Date() };
  const sim = new SefazSimulator({ knex, pki: createSimulatorPki(), clientCaPems: [ca.certPem], now: () => clock.now });
  await sim.start();
  const port = Number(new URL(sim.url).port);
  const post: ConformanceSim['post'] = (path, body, opts = {}) => new Promise((resolve, reject) => {
    const client = opts.client ?? a1;
    const req = https.request({
      host: '127.0.0.1', port, path, method: 'POST', servername: 'localhost',
      key: client.keyPem, cert: client.certPem, ca: [sim.caPem], agent: false,
      headers: {
        'content-type': opts.contentType ?? 'application/soap+xml; charset=utf-8',
        ...(opts.soapAction ? { soapaction: opts.soapAction } : {}),
        ...(opts.host ? { host: opts.host } : {}),
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
  return {
    sim, knex, ca, a1, clock, post,
    async stop() { await sim.stop(); await knex.destroy(); await db.drop(); },
  };
}

/** The product's own envelope shape (SOAP 1.2, `soap12:`, namespace on nfeDadosMsg). */
export function envelope12(service: SefazService, payload: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soap12:Envelope xmlns:soap12="${SOAP12}"><soap12:Body>`
    + `<nfeDadosMsg xmlns="${WSDL_NS_BASE}${service}">${payload}</nfeDadosMsg></soap12:Body></soap12:Envelope>`;
}

/** The message inside nfeResultMsg, checked against its official return schema. */
export function resultOf(answer: Answer, schema: keyof typeof NFE_SCHEMAS): { xml: string; xsd: { valid: boolean; errors: string[] } } {
  const xml = soapPayload(answer.body, 'nfeResultMsg');
  return { xml, xsd: validateXml(NFE_SCHEMAS[schema], xml) };
}

export const tag = (xml: string, name: string): string | null => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;

/** Last occurrence (the protNFe/retEvento inside a batch answer, after the batch header). */
export const lastTag = (xml: string, name: string): string | null => {
  const all = [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))];
  return all.length ? all[all.length - 1]![1]! : null;
};

let numero = 1000;
export function aNote(c: ConformanceSim, o: Partial<SampleOptions> = {}, signer: A1 = c.a1): { xml: string; accessKey: string } {
  return sampleNfe({ cnpj: CNPJ, keyPem: signer.keyPem, certPem: signer.certPem, numero: numero++, at: c.clock.now, ...o });
}

export const enviNFe = (signedNfeXml: string) => buildEnviNFe({ idLote: '1', signedNfeXml });
export const consStat = (cUF: string, ambiente: 1 | 2 = 2) => buildConsStatServ({ ambiente, cUF });
export const consSit = (accessKey: string) => buildConsSitNFe({ ambiente: 2, accessKey });

export async function envEvento(c: ConformanceSim, o: { accessKey: string; detail: EventDetail; sequence?: number; at?: Date; cOrgao?: string; ambiente?: 1 | 2; signer?: A1 }): Promise<string> {
  const signer = o.signer ?? c.a1;
  const built = await buildEnvEvento({
    idLote: '1', cOrgao: o.cOrgao ?? '35', ambiente: o.ambiente ?? 2, cnpj: CNPJ, accessKey: o.accessKey, sequence: o.sequence ?? 1,
    at: o.at ?? c.clock.now, detail: o.detail,
  }, (xml, id) => signXml(xml, id, signer.keyPem, signer.certPem));
  return built.xml;
}

export function inutNFe(c: ConformanceSim, o: { serie: number; inicio: number; fim: number; justificativa?: string; ambiente?: 1 | 2; cUF?: string }): Promise<string> {
  return buildInutNFe({
    cUF: o.cUF ?? '35', ambiente: o.ambiente ?? 2, ano: String(c.clock.now.getUTCFullYear()).slice(2), cnpj: CNPJ, model: '55',
    serie: o.serie, inicio: o.inicio, fim: o.fim, justificativa: o.justificativa ?? 'Numeracao pulada por falha do sistema',
  }, (xml, id) => signXml(xml, id, c.a1.keyPem, c.a1.certPem));
}

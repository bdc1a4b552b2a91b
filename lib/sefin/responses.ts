import { fromGzipBase64 } from './payload.js';
import type { IssuedNfse, SefinMessage } from './results.js';

/**
 * Reading Sefin Nacional's JSON answers into the typed results. Each parser gets the HTTP status
 * and the body text and either returns what the answer means or throws MalformedAnswerError
 * (the caller turns that into `unknown`/`failed` with reason `malformed-response`): an answer we
 * cannot read is never taken as a rejection or an authorization.
 *
 * Field names as Sefin writes them: the emission answers `erros[]` with PascalCase keys
 * (Codigo, Descricao, Complemento), the reads answer `erro` with lowercase keys; keys are matched
 * without regard to case so either spelling reads the same.
 */
export class MalformedAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAnswerError';
  }
}

type Json = Record<string, unknown>;

function parseJson(body: string): Json {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    throw new MalformedAnswerError(`answer is not JSON: ${body.slice(0, 120)}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new MalformedAnswerError('answer is not a JSON object');
  return v as Json;
}

/** A key of `o` by name, case-insensitive (Sefin mixes `idDps`/`idDPS`, `Codigo`/`codigo`). */
function field(o: Json, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function str(o: Json, name: string): string | undefined {
  const v = field(o, name);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function messagesOf(v: unknown): SefinMessage[] {
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
  const out: SefinMessage[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const codigo = str(item as Json, 'Codigo');
    const descricao = str(item as Json, 'Descricao') ?? str(item as Json, 'Mensagem');
    if (!codigo && !descricao) continue;
    const complemento = str(item as Json, 'Complemento');
    out.push({ codigo: codigo ?? '', descricao: descricao ?? '', ...(complemento ? { complemento } : {}) });
  }
  return out;
}

/** erros[] (emission, events) or erro (reads), verbatim. */
export function errorsOf(o: Json): SefinMessage[] {
  return [...messagesOf(field(o, 'erros')), ...messagesOf(field(o, 'erro'))];
}

const CHAVE = /^\d{50}$/;

/** What we read from an NFS-e XML: its number, processing time and the DPS it came from. */
export function nfseFacts(nfseXml: string): { numeroNfse: string; authorizedAt: string; idDps: string; chaveAcesso: string } {
  const tag = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}>([^<]+)</(?:[\\w.-]+:)?${name}>`).exec(nfseXml)?.[1];
  const attrId = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*\\sId="([^"]+)"`).exec(nfseXml)?.[1];
  const numeroNfse = tag('nNFSe');
  const authorizedAt = tag('dhProc');
  const infNfseId = attrId('infNFSe');
  const idDps = attrId('infDPS');
  if (!numeroNfse || !authorizedAt || !infNfseId || !idDps) throw new MalformedAnswerError('NFS-e XML without nNFSe, dhProc, infNFSe Id or infDPS Id');
  return { numeroNfse, authorizedAt, idDps, chaveAcesso: infNfseId.replace(/^NFS/, '') };
}

function issued(o: Json, expect: { chaveAcesso?: string; idDps?: string }): IssuedNfse {
  const b64 = str(o, 'nfseXmlGZipB64');
  if (!b64) throw new MalformedAnswerError('answer without nfseXmlGZipB64');
  let nfseXml: string;
  try {
    nfseXml = fromGzipBase64(b64);
  } catch (err) {
    throw new MalformedAnswerError(`nfseXmlGZipB64: ${(err as Error).message}`);
  }
  const facts = nfseFacts(nfseXml);
  const chaveAcesso = str(o, 'chaveAcesso') ?? facts.chaveAcesso;
  if (!CHAVE.test(chaveAcesso)) throw new MalformedAnswerError(`chaveAcesso is not 50 digits: ${chaveAcesso}`);
  if (chaveAcesso !== facts.chaveAcesso) throw new MalformedAnswerError('chaveAcesso differs from the NFS-e Id');
  if (expect.chaveAcesso && chaveAcesso !== expect.chaveAcesso) throw new MalformedAnswerError('answer for another chaveAcesso');
  if (expect.idDps && facts.idDps !== expect.idDps) throw new MalformedAnswerError(`NFS-e of another DPS (${facts.idDps})`);
  return { chaveAcesso, idDps: facts.idDps, numeroNfse: facts.numeroNfse, nfseXml, authorizedAt: facts.authorizedAt };
}

export type SubmitAnswer =
  | ({ kind: 'authorized'; alertas: SefinMessage[] } & IssuedNfse)
  | { kind: 'rejected'; httpStatus: number; erros: SefinMessage[] };

/**
 * POST /nfse: 201 (any 2xx) with chaveAcesso + nfseXmlGZipB64 + alertas, or 4xx with erros[].
 * A 5xx, or a 4xx without erros, is not Sefin's judgement of the DPS: it throws.
 */
export function parseSubmitAnswer(status: number, body: string, idDps: string): SubmitAnswer {
  const o = parseJson(body);
  if (status >= 200 && status < 300) return { kind: 'authorized', alertas: messagesOf(field(o, 'alertas')), ...issued(o, { idDps }) };
  const erros = errorsOf(o);
  if (status >= 400 && status < 500 && erros.length) return { kind: 'rejected', httpStatus: status, erros };
  throw new MalformedAnswerError(`HTTP ${status} without erros`);
}

/** GET /dps/{idDps}: 200 with the chaveAcesso of its NFS-e; 404 none. Returns the chave or null. */
export function parseDpsAnswer(status: number, body: string): string | null {
  if (status === 404) return null;
  if (status !== 200) throw new MalformedAnswerError(`HTTP ${status} on the DPS consult`);
  const chave = str(parseJson(body), 'chaveAcesso');
  if (!chave || !CHAVE.test(chave)) throw new MalformedAnswerError('DPS consult without a 50-digit chaveAcesso');
  return chave;
}

/** GET /nfse/{chaveAcesso}: 200 with nfseXmlGZipB64; 404 not found. */
export function parseNfseAnswer(status: number, body: string, chaveAcesso: string): IssuedNfse | null {
  if (status === 404) return null;
  if (status !== 200) throw new MalformedAnswerError(`HTTP ${status} on the NFS-e consult`);
  return issued(parseJson(body), { chaveAcesso });
}

export type EventAnswer =
  | { kind: 'registered'; eventXml: string; registeredAt: string }
  | { kind: 'rejected'; httpStatus: number; erros: SefinMessage[] };

/** POST /nfse/{chave}/eventos: 2xx with eventoXmlGZipB64 (the registered evento), or 4xx with erros[]. */
export function parseEventAnswer(status: number, body: string): EventAnswer {
  const o = parseJson(body);
  if (status >= 200 && status < 300) return registeredEvent(o);
  const erros = errorsOf(o);
  if (status >= 400 && status < 500 && erros.length) return { kind: 'rejected', httpStatus: status, erros };
  throw new MalformedAnswerError(`HTTP ${status} without erros`);
}

function registeredEvent(o: Json): { kind: 'registered'; eventXml: string; registeredAt: string } {
  const b64 = str(o, 'eventoXmlGZipB64');
  if (!b64) throw new MalformedAnswerError('answer without eventoXmlGZipB64');
  let eventXml: string;
  try {
    eventXml = fromGzipBase64(b64);
  } catch (err) {
    throw new MalformedAnswerError(`eventoXmlGZipB64: ${(err as Error).message}`);
  }
  const registeredAt = /<(?:[\w.-]+:)?dhProc>([^<]+)</.exec(eventXml)?.[1];
  if (!registeredAt) throw new MalformedAnswerError('evento XML without dhProc');
  return { kind: 'registered', eventXml, registeredAt };
}

/** GET /nfse/{chave}/eventos/{tipo}/{nSeq}: 200 the registered event, 404 none. */
export function parseEventConsultAnswer(status: number, body: string): { kind: 'registered'; eventXml: string; registeredAt: string } | null {
  if (status === 404) return null;
  if (status !== 200) throw new MalformedAnswerError(`HTTP ${status} on the event consult`);
  return registeredEvent(parseJson(body));
}

export type ConvenioAnswer = { kind: 'aderente' } | { kind: 'nao_aderente'; mensagem: string };

/**
 * GET …/convenio: `parametrosConvenio.aderenteAmbienteNacional` 1 means the municipality takes
 * DPS through the national standard (TipoSimNao: 1 sim, 0 não). A 404 (no convênio at all) is
 * non-adherence too; its `mensagem` is kept verbatim.
 */
export function parseConvenioAnswer(status: number, body: string): ConvenioAnswer {
  const o = parseJson(body);
  const mensagem = str(o, 'mensagem') ?? errorsOf(o)[0]?.descricao ?? '';
  if (status === 404) return { kind: 'nao_aderente', mensagem };
  if (status !== 200) throw new MalformedAnswerError(`HTTP ${status} on the convênio consult`);
  const p = field(o, 'parametrosConvenio');
  if (!p || typeof p !== 'object') throw new MalformedAnswerError('convênio answer without parametrosConvenio');
  const flag = Number(field(p as Json, 'aderenteAmbienteNacional'));
  if (flag === 1) return { kind: 'aderente' };
  if (flag === 0) return { kind: 'nao_aderente', mensagem };
  throw new MalformedAnswerError('parametrosConvenio.aderenteAmbienteNacional is neither 0 nor 1');
}

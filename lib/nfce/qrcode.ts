import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../errors/index.js';
import type { Ambiente } from '../issuer/types.js';
import { formatCents } from '../money.js';

/**
 * NFC-e QR Code version 2 (Manual de Especificações Técnicas do DANFE NFC-e e QR Code, v5+;
 * NT 2015.002 rev.): the `p` parameter and its CSC hash, the per-UF consultation URLs, and a
 * format check against the qrCode patterns of leiauteNFe_v4.00.xsd before the note is emitted.
 *
 *   online  (tpEmis 1): p = chave|2|tpAmb|idCSC|SHA1(chave|2|tpAmb|idCSC + CSC)
 *   offline (tpEmis 9): p = chave|2|tpAmb|dia|vNF|hex(DigestValue)|idCSC|SHA1(those 7 fields + CSC)
 * The hash is uppercase hex; idCSC is written without leading zeros.
 */
const DATA = fileURLToPath(new URL('../../data/sefaz/', import.meta.url));

type UrlTable = Record<'1' | '2', Record<string, string>>;
let qrUrls: UrlTable | undefined;
let chaveUrls: UrlTable | undefined;

/** NfeConsultaQR per UF and environment, from data/sefaz/wsnfe_4.00_mod65.xml (read once). */
function qrUrlTable(): UrlTable {
  if (!qrUrls) {
    const xml = readFileSync(`${DATA}wsnfe_4.00_mod65.xml`, 'utf8');
    const table: UrlTable = { '1': {}, '2': {} };
    for (const block of xml.split('<UF>').slice(1)) {
      const uf = /<sigla>([A-Z]{2,4})<\/sigla>/.exec(block)?.[1];
      if (!uf) continue;
      for (const [env, tag] of [['1', 'producao'], ['2', 'homologacao']] as const) {
        const section = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(block)?.[1] ?? '';
        const url = /<NfeConsultaQR[^>]*>([^<]+)<\/NfeConsultaQR>/.exec(section)?.[1]?.trim();
        if (url) table[env][uf] = url;
      }
    }
    qrUrls = table;
  }
  return qrUrls;
}

/** urlChave (ZX03) per UF and environment, from data/sefaz/uri_consulta_nfce.json (read once). */
function chaveUrlTable(): UrlTable {
  chaveUrls ??= JSON.parse(readFileSync(`${DATA}uri_consulta_nfce.json`, 'utf8')) as UrlTable;
  return chaveUrls;
}

export function nfceQrCodeUrl(uf: string, tpAmb: Ambiente): string {
  const url = qrUrlTable()[String(tpAmb) as '1' | '2'][uf];
  if (!url) throw new DomainError('UF_SEM_URL_NFCE', { uf, tpAmb });
  return url;
}

export function nfceUrlChave(uf: string, tpAmb: Ambiente): string {
  const url = chaveUrlTable()[String(tpAmb) as '1' | '2'][uf];
  if (!url) throw new DomainError('UF_SEM_URL_NFCE', { uf, tpAmb });
  return url;
}

export interface QrCodeCsc {
  /** The issuer's CSC (token), secret. */
  csc: string;
  /** Its id as registered (e.g. "000001"); written without leading zeros. */
  cscId: string;
}

const sha1Upper = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex').toUpperCase();

function idCsc(cscId: string): string {
  if (!/^\d{1,6}$/.test(cscId)) throw new DomainError('QRCODE_FORA_DO_PADRAO', { campo: 'cscId' });
  return String(Number(cscId));
}

/** `p` of the online QR Code v2 (tpEmis 1). */
export function qrCodeOnlineParams(accessKey: string, tpAmb: Ambiente, c: QrCodeCsc): string {
  const fields = `${accessKey}|2|${tpAmb}|${idCsc(c.cscId)}`;
  return `${fields}|${sha1Upper(fields + c.csc)}`;
}

export interface OfflineFields {
  /** dhEmi as written in ide (ISO with offset): its day of month is the QR's `dia`. */
  dhEmi: string;
  /** vNF in cents. */
  vNF: bigint;
  /** Base64 DigestValue of the signed infNFe; the QR carries the hex of its ASCII bytes. */
  digestValue: string;
}

/** `p` of the offline (contingency, tpEmis 9) QR Code v2. */
export function qrCodeOfflineParams(accessKey: string, tpAmb: Ambiente, c: QrCodeCsc, f: OfflineFields): string {
  const dia = f.dhEmi.slice(8, 10);
  const digVal = Buffer.from(f.digestValue, 'ascii').toString('hex');
  const fields = `${accessKey}|2|${tpAmb}|${dia}|${formatCents(f.vNF)}|${digVal}|${idCsc(c.cscId)}`;
  return `${fields}|${sha1Upper(fields + c.csc)}`;
}

// leiauteNFe_v4.00.xsd, infNFeSupl/qrCode: the two v2 patterns (online tpEmis 1|3|4, offline 9).
const QR_V2_ONLINE = /^(HTTPS?|https?):\/\/.*\?p=([0-9]{6}[0-9A-Z]{12}[0-9]{16}(1|3|4)[0-9]{9})\|[2]\|[1-2]\|(0|[1-9]{1}([0-9]{1,5})?)\|[A-Fa-f0-9]{40}$/;
const QR_V2_OFFLINE = /^(HTTPS?|https?):\/\/.*\?p=([0-9]{6}[0-9A-Z]{12}[0-9]{16}9[0-9]{9})\|[2]\|[1-2]\|([0]{1}[1-9]{1}|[1-2]{1}[0-9]{1}|[3]{1}[0-1]{1})\|(0|0\.[0-9]{2}|[1-9]{1}[0-9]{0,12}(\.[0-9]{2})?)\|[A-Fa-f0-9]{56}\|(0|[1-9]{1}([0-9]{1,5})?)\|[A-Fa-f0-9]{40}$/;

/** Refuses (before emission) a QR Code that the schema would refuse. */
export function assertQrCodeFormat(qrCode: string): void {
  const lengthOk = qrCode.length >= 60 && qrCode.length <= 1000;
  if (!lengthOk || !(QR_V2_ONLINE.test(qrCode) || QR_V2_OFFLINE.test(qrCode))) {
    throw new DomainError('QRCODE_FORA_DO_PADRAO', { qrCode });
  }
}

export interface NfceQrCode {
  qrCode: string;
  urlChave: string;
}

/**
 * The infNFeSupl contents for a signed NFC-e: online form for tpEmis 1, offline for 9.
 * Throws CSC_AUSENTE without a CSC and QRCODE_FORA_DO_PADRAO when the result fails the pattern.
 */
export function buildNfceQrCode(input: {
  accessKey: string; uf: string; tpAmb: Ambiente; tpEmis: number;
  csc?: string | null; cscId?: string | null;
  offline?: OfflineFields;
}): NfceQrCode {
  if (!input.csc || !input.cscId) throw new DomainError('CSC_AUSENTE');
  const c = { csc: input.csc, cscId: input.cscId };
  let p: string;
  if (input.tpEmis === 9) {
    if (!input.offline) throw new RangeError('offline NFC-e QR Code needs dhEmi, vNF and digestValue');
    p = qrCodeOfflineParams(input.accessKey, input.tpAmb, c, input.offline);
  } else {
    p = qrCodeOnlineParams(input.accessKey, input.tpAmb, c);
  }
  const qrCode = `${nfceQrCodeUrl(input.uf, input.tpAmb)}?p=${p}`;
  assertQrCodeFormat(qrCode);
  return { qrCode, urlChave: nfceUrlChave(input.uf, input.tpAmb) };
}

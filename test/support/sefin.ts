import { buildSignedDps, type SignedDps } from '../../lib/nfse/document.js';
import type { NfseIssuer } from '../../lib/nfse/types.js';
import { NFSE_NS } from '../../lib/nfse/xml/dps.js';
import { createSigner, signEnveloped } from '../../lib/sign/signer.js';
import { brasiliaDateTime } from '../../lib/sefaz/xml.js';
import { raw } from '../../lib/xml/writer.js';
import type { A1 } from './certificates.js';
import { anNfseIssuer } from './nfse-factories.js';
import { checked, nfseScenarios, type NfseScenario } from './nfse-scenarios.js';

/** Signing material of a test A1 (fingerprint per certificate, as the signer cache expects). */
export function materialOf(a1: A1, issuerId = 'iss-nfse') {
  return { issuerId, fingerprint: `fp-${a1.certPem.slice(-60, -30)}`, keyPem: a1.keyPem, certPem: a1.certPem, chainPem: [], notAfter: '2099-01-01' };
}

/** A DPS built by lib/nfse (buildSignedDps) for `issuer`, signed with `a1`, dhEmi at `now` (Brasília). */
export function signedDps(a1: A1, opts: { nDPS: number; now: Date; issuer?: Partial<NfseIssuer>; scenario?: NfseScenario; tpAmb?: 1 | 2 }): SignedDps {
  const s = opts.scenario ?? nfseScenarios()[0]!;
  const issuer = anNfseIssuer({ ...s.issuer, cnpj: a1.cnpj, ...opts.issuer });
  const dhEmi = brasiliaDateTime(new Date(opts.now.getTime() - 60_000));
  return buildSignedDps(checked({ ...s, issuer }).dps, { issuer, nDPS: opts.nDPS, dhEmi, tpAmb: opts.tpAmb ?? 2, verAplic: 'fiscal-api test' }, createSigner(materialOf(a1)));
}

/** A signed pedido de registro de evento of cancellation (e101101) of `chave` by the A1's CNPJ. */
export function signedCancellation(a1: A1, chave: string, now: Date, cnpjAutor = a1.cnpj): string {
  const id = `PRE${chave}101101`;
  const inner = `<tpAmb>2</tpAmb><verAplic>fiscal-api test</verAplic><dhEvento>${brasiliaDateTime(now)}</dhEvento>`
    + `<CNPJAutor>${cnpjAutor}</CNPJAutor><chNFSe>${chave}</chNFSe>`
    + '<e101101><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>1</cMotivo><xMotivo>Erro na emissao do documento fiscal</xMotivo></e101101>';
  const signed = signEnveloped(createSigner(materialOf(a1)), { name: 'infPedReg', attrs: { Id: id }, innerXml: inner, ns: NFSE_NS });
  return raw('pedRegEvento', signed.elementXml + signed.signatureXml, { versao: '1.01' }, { xmlns: NFSE_NS });
}

/** One raw HTTPS request to the simulator's Sefin routes as the holder of `a1` (protocol-level tests). */
export async function rawSefin(
  simulator: { url: string; caPem: string }, a1: A1, method: 'GET' | 'POST' | 'HEAD', path: string, body?: unknown,
): Promise<{ status: number; body: any }> {
  const { request, Agent } = await import('node:https');
  const agent = new Agent({ key: a1.keyPem, cert: a1.certPem, ca: [simulator.caPem] });
  try {
    return await new Promise((done, fail) => {
      const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const url = new URL(simulator.url + path);
      const req = request({ method, hostname: url.hostname, port: url.port, path: url.pathname, agent, headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON: keep the text */ }
          done({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', fail);
      req.end(payload);
    });
  } finally {
    agent.destroy();
  }
}

/** `dps` with one infDPS field changed and signed again (a DPS whose Id no longer matches its fields). */
export function resignedDps(a1: A1, dps: SignedDps, from: RegExp, to: string): string {
  const inf = /<infDPS Id="([^"]+)">([\s\S]*)<\/infDPS>/.exec(dps.xml)!;
  const signed = signEnveloped(createSigner(materialOf(a1)), { name: 'infDPS', attrs: { Id: inf[1]! }, innerXml: inf[2]!.replace(from, to), ns: NFSE_NS });
  return raw('DPS', signed.elementXml + signed.signatureXml, { versao: '1.01' }, { xmlns: NFSE_NS });
}

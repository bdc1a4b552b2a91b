import test from 'ava';
import https from 'node:https';
import tls from 'node:tls';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tools } from 'node-sped-nfe';
import { issueSandboxA1, loadOrCreateSandboxCa } from '../../../../services/sefaz/simulator/sandbox-ca.js';
import { validateXml } from '../../../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import { aNote, CNPJ, lastTag, startConformanceSim, tag, type ConformanceSim } from '../../../support/simulator-conformance.js';
import type { A1 } from '../../../support/certificates.js';

/**
 * Issue 19, "any conforming client works": node-sped-nfe (npm, MIT, 1.2.52 pinned), an NF-e client
 * that builds, signs (xml-crypto) and sends its own SOAP 1.2 envelopes to its own table of SEFAZ
 * URLs, pointed at the simulator without touching its code: its host names are mapped to the
 * simulator by the https global agent (the library passes no agent of its own), so the request
 * keeps the authority's path and Host header, over mutual TLS with a sandbox A1 (its PKCS#12, read
 * by the library with openssl).
 *
 * Not covered by this client: NFC-e outside the UFs it has URLs for (CE: none, the request has no
 * URL), and its own table sends CE and PA model 55 to SVAN/SVC-AN, which
 * data/sefaz/nfe-endpoints.json has at SVRS: the simulator answers those 289, as the authority would.
 */
let c: ConformanceSim;
let a1: A1;
let savedAgent: https.Agent;

class ToSimulator extends https.Agent {
  constructor(private readonly port: number) { super({ keepAlive: false }); }
  // Only the socket goes to the simulator: the URL's host name still names the authority (SNI and Host).
  // The socket is returned synchronously, as https.Agent's own createConnection does.
  override createConnection(options: https.RequestOptions): tls.TLSSocket {
    return tls.connect({ ...(options as tls.ConnectionOptions), host: '127.0.0.1', port: this.port });
  }
}

test.before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-ca-'));
  c = await startConformanceSim({ ca: loadOrCreateSandboxCa(dir) });
  a1 = issueSandboxA1(dir, { cnpj: CNPJ, password: 'senha-do-a1' });
  savedAgent = https.globalAgent;
  (https as { globalAgent: https.Agent }).globalAgent = new ToSimulator(Number(new URL(c.sim.url).port));
});
test.after.always(async () => {
  if (savedAgent) (https as { globalAgent: https.Agent }).globalAgent = savedAgent;
  await c?.stop();
});

function client(UF: string, mod: '55' | '65' = '55'): Tools {
  const config = { mod, xmllint: 'xmllint', UF, tpAmb: 2, CSC: '', CSCid: '', versao: '4.00', timeout: 20, openssl: null, CPF: '', CNPJ };
  return new Tools(config, { pfx: Buffer.from(a1.pfxBase64, 'base64') as unknown as string, senha: a1.password });
}

const UF_CODE: Record<string, string> = { SP: '35', MG: '31', PR: '41', RS: '43', BA: '29', SC: '42', MA: '21', GO: '52' };

for (const [UF, mod] of [['SP', '55'], ['MG', '55'], ['PR', '55'], ['RS', '55'], ['BA', '55'], ['SC', '55'], ['MA', '55'], ['SP', '65'], ['GO', '65']] as const) {
  test(`node-sped-nfe: status of ${UF} model ${mod} at the library's own URL`, async (t) => {
    const ret = await client(UF, mod).sefazStatus();
    t.deepEqual(validateXml(NFE_SCHEMAS.retConsStatServ, ret), { valid: true, errors: [] });
    t.is(tag(ret, 'cStat'), '107', ret);
    t.is(tag(ret, 'xMotivo'), 'Serviço em Operação');
    t.is(tag(ret, 'cUF'), UF_CODE[UF]);
    t.is(tag(ret, 'tpAmb'), '2');
  });
}

test('node-sped-nfe: a note signed by the library is authorized (synchronous batch) and found by its key', async (t) => {
  const tools = client('SP');
  // The note's content comes from the tests' fixture; the signature is the library's own.
  const note = aNote(c, { certPem: a1.certPem, keyPem: a1.keyPem });
  const signed = await tools.xmlSign(note.xml.replace(/<Signature\b[\s\S]*<\/Signature>/, ''));
  const sent = await tools.sefazEnviaLote(signed, { idLote: 1, indSinc: 1 } as unknown as { idLote: 1; indSinc: 0 });
  t.deepEqual(validateXml(NFE_SCHEMAS.retEnviNFe, sent), { valid: true, errors: [] });
  t.is(tag(sent, 'cStat'), '104', sent);
  t.is(tag(sent, 'xMotivo'), 'Lote processado');
  t.is(tag(sent, 'chNFe'), note.accessKey);
  t.is(lastTag(sent, 'cStat'), '100');
  t.is(lastTag(sent, 'xMotivo'), 'Autorizado o uso da NF-e');
  const nProt = tag(sent, 'nProt')!;
  t.regex(nProt, /^135\d{12}$/);

  const consulted = await tools.consultarNFe(note.accessKey);
  t.deepEqual(validateXml(NFE_SCHEMAS.retConsSitNFe, consulted), { valid: true, errors: [] });
  t.is(tag(consulted, 'cStat'), '100', consulted);
  t.is(tag(consulted, 'xMotivo'), 'Autorizado o uso da NF-e');
  t.is(tag(consulted, 'chNFe'), note.accessKey);
  t.is(tag(consulted, 'nProt'), nProt);
});

test('node-sped-nfe: a key the simulator never authorized is 217 on consult', async (t) => {
  const unknown = aNote(c, { certPem: a1.certPem, keyPem: a1.keyPem }).accessKey;
  const consulted = await client('SP').consultarNFe(unknown);
  t.deepEqual(validateXml(NFE_SCHEMAS.retConsSitNFe, consulted), { valid: true, errors: [] });
  t.is(tag(consulted, 'cStat'), '217');
  t.is(tag(consulted, 'xMotivo'), 'Rejeição: NF-e não consta na base de dados da SEFAZ');
});

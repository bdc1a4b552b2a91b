import test from 'ava';
import { WSDL_NS_BASE } from '../../../../lib/sefaz/services.js';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import { buildAccessKey } from '../../../../lib/nfe/access-key.js';
import {
  aNote, CNPJ, consSit, consStat, enviNFe, envelope12, envEvento, lastTag, resultOf, startConformanceSim, tag, SOAP11, SOAP12, type ConformanceSim,
} from '../../../support/simulator-conformance.js';

/**
 * Issue 19, transport: raw envelopes over mTLS, as other NF-e software writes them, to the
 * authorities' own paths. Each answer is checked for its SOAP version, its content type, the
 * ret* against the official XSD, and the authority's cStat and text.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const STATUS_NS = `${WSDL_NS_BASE}NFeStatusServico4`;
const body = consStat('35');

const variants: { name: string; version: '1.1' | '1.2'; contentType: string; soapAction?: string; envelope: string }[] = [
  {
    name: 'SOAP 1.2, soap12: prefix, namespace on nfeDadosMsg (the product\'s own)', version: '1.2',
    contentType: `application/soap+xml; charset=utf-8; action="${STATUS_NS}/nfeStatusServicoNF"`,
    envelope: envelope12('NFeStatusServico4', body),
  },
  {
    name: 'SOAP 1.2, env: prefix, nfe: prefix declared on the Envelope, action absent', version: '1.2',
    contentType: 'application/soap+xml; charset=utf-8',
    envelope: `<env:Envelope xmlns:env="${SOAP12}" xmlns:nfe="${STATUS_NS}"><env:Header/><env:Body><nfe:nfeDadosMsg>${body}</nfe:nfeDadosMsg></env:Body></env:Envelope>`,
  },
  {
    name: 'SOAP 1.2, S: prefix, service namespace as default on Body, comments and whitespace', version: '1.2',
    contentType: 'application/soap+xml',
    envelope: `<?xml version="1.0" encoding="utf-8"?>\n<!-- client -->\n<S:Envelope xmlns:S="${SOAP12}">\n  <S:Body xmlns="${STATUS_NS}">\n    <!-- message -->\n    <nfeDadosMsg>\n      ${body}\n    </nfeDadosMsg>\n  </S:Body>\n</S:Envelope>`,
  },
  {
    name: 'SOAP 1.2, no prefix at all', version: '1.2',
    contentType: 'application/soap+xml; charset=utf-8',
    envelope: `<Envelope xmlns="${SOAP12}"><Body><nfeDadosMsg xmlns="${STATUS_NS}">${body}</nfeDadosMsg></Body></Envelope>`,
  },
  {
    name: 'SOAP 1.1, soapenv: prefix, text/xml with SOAPAction', version: '1.1',
    contentType: 'text/xml; charset=utf-8', soapAction: `"${STATUS_NS}/nfeStatusServicoNF"`,
    envelope: `<soapenv:Envelope xmlns:soapenv="${SOAP11}" xmlns:nfe="${STATUS_NS}"><soapenv:Header/><soapenv:Body><nfe:nfeDadosMsg>${body}</nfe:nfeDadosMsg></soapenv:Body></soapenv:Envelope>`,
  },
  {
    name: 'SOAP 1.1, soap: prefix, namespace on nfeDadosMsg', version: '1.1',
    contentType: 'text/xml; charset=utf-8', soapAction: `${STATUS_NS}/nfeStatusServicoNF`,
    envelope: `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><nfeDadosMsg xmlns="${STATUS_NS}">${body}</nfeDadosMsg></soap:Body></soap:Envelope>`,
  },
];

for (const v of variants) {
  test(`envelope variant answered in kind: ${v.name}`, async (t) => {
    const a = await c.post('/ws/nfestatusservico4.asmx', v.envelope, { contentType: v.contentType, soapAction: v.soapAction, host: 'homologacao.nfe.fazenda.sp.gov.br' });
    t.is(a.status, 200, a.body);
    t.is(a.contentType, v.version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
    t.true(a.body.includes(`<soap:Envelope xmlns:soap="${v.version === '1.1' ? SOAP11 : SOAP12}"`), a.body);
    const r = resultOf(a, 'retConsStatServ');
    t.deepEqual(r.xsd, { valid: true, errors: [] });
    t.is(tag(r.xml, 'cStat'), '107');
    t.is(tag(r.xml, 'xMotivo'), 'Serviço em Operação');
    t.is(tag(r.xml, 'tpAmb'), '2');
  });
}

const realPaths: { authorizer: string; host: string; path: string; cUF: string }[] = [
  { authorizer: 'SP', host: 'homologacao.nfe.fazenda.sp.gov.br', path: '/ws/nfestatusservico4.asmx', cUF: '35' },
  { authorizer: 'MG', host: 'hnfe.fazenda.mg.gov.br', path: '/nfe2/services/NFeStatusServico4', cUF: '31' },
  { authorizer: 'PR', host: 'homologacao.nfe.sefa.pr.gov.br', path: '/nfe/NFeStatusServico4', cUF: '41' },
  { authorizer: 'SVRS (RJ)', host: 'nfe-homologacao.svrs.rs.gov.br', path: '/ws/NfeStatusServico/NfeStatusServico4.asmx', cUF: '33' },
  { authorizer: 'SVAN (MA)', host: 'hom.sefazvirtual.fazenda.gov.br', path: '/NFeStatusServico4/NFeStatusServico4.asmx', cUF: '21' },
];

for (const p of realPaths) {
  test(`the real path of ${p.authorizer} answers status for its UF, and 289 for a UF it does not serve`, async (t) => {
    const ok = resultOf(await c.post(p.path, envelope12('NFeStatusServico4', consStat(p.cUF)), { host: p.host }), 'retConsStatServ');
    t.deepEqual(ok.xsd, { valid: true, errors: [] });
    t.is(tag(ok.xml, 'cStat'), '107');
    const other = p.cUF === '35' ? '31' : '35';
    const refused = resultOf(await c.post(p.path, envelope12('NFeStatusServico4', consStat(other)), { host: p.host }), 'retConsStatServ');
    t.deepEqual(refused.xsd, { valid: true, errors: [] });
    t.is(tag(refused.xml, 'cStat'), '289');
    t.is(tag(refused.xml, 'xMotivo'), 'Rejeição: Código da UF informada diverge da UF solicitada');
  });
}

test('SP\'s NFC-e path (spelled like the UF-less alias) is SP\'s by its Host: 289 on status, 226 on consult for MG', async (t) => {
  const host = 'homologacao.nfce.fazenda.sp.gov.br';
  const ok = resultOf(await c.post('/ws/NFeStatusServico4.asmx', envelope12('NFeStatusServico4', consStat('35')), { host }), 'retConsStatServ');
  t.is(tag(ok.xml, 'cStat'), '107');
  const status = resultOf(await c.post('/ws/NFeStatusServico4.asmx', envelope12('NFeStatusServico4', consStat('31')), { host }), 'retConsStatServ');
  t.deepEqual(status.xsd, { valid: true, errors: [] });
  t.is(tag(status.xml, 'cStat'), '289');
  t.is(tag(status.xml, 'xMotivo'), 'Rejeição: Código da UF informada diverge da UF solicitada');
  const mgKey = buildAccessKey({ cUF: '31', aamm: '2611', document: CNPJ, model: '65', serie: 1, numero: 7, tpEmis: 1, cNF: '12345678' });
  const consult = resultOf(await c.post('/ws/NFeConsultaProtocolo4.asmx', envelope12('NFeConsultaProtocolo4', consSit(mgKey)), { host }), 'retConsSitNFe');
  t.deepEqual(consult.xsd, { valid: true, errors: [] });
  t.is(tag(consult.xml, 'cStat'), '226');
  t.is(tag(consult.xml, 'xMotivo'), cstatText(226));
  // The same path at the simulator's own address stays the alias: the UF comes from the message.
  const alias = resultOf(await c.post('/ws/NFeStatusServico4.asmx', envelope12('NFeStatusServico4', consStat('31'))), 'retConsStatServ');
  t.is(tag(alias.xml, 'cStat'), '107');
});

test('paths match case-insensitively, with the IP as Host', async (t) => {
  const a = await c.post('/WS/NFeStatusServico/NFESTATUSSERVICO4.ASMX', envelope12('NFeStatusServico4', consStat('33')));
  t.is(tag(resultOf(a, 'retConsStatServ').xml, 'cStat'), '107');
});

test('the Host header tells apart the Ambiente Nacional and SVAN on their shared events path', async (t) => {
  // A cancellation of an SP note goes to SP: both AN and SVAN refuse it with 226, which shows the
  // path was resolved to them (and not to the alias that takes the UF from the message).
  const note = aNote(c);
  const auth = resultOf(await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: 'homologacao.nfe.fazenda.sp.gov.br' }), 'retEnviNFe');
  t.is(lastTag(auth.xml, 'cStat'), '100');
  const cancel = await envEvento(c, { accessKey: note.accessKey, detail: { type: 'cancelamento', protocol: lastTag(auth.xml, 'nProt')!, justificativa: 'Pedido cancelado pelo cliente' } });
  for (const host of ['hom1.nfe.fazenda.gov.br', 'hom.sefazvirtual.fazenda.gov.br']) {
    const r = resultOf(await c.post('/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx', envelope12('NFeRecepcaoEvento4', cancel), { host }), 'retEnvEvento');
    t.deepEqual(r.xsd, { valid: true, errors: [] });
    t.is(lastTag(r.xml, 'cStat'), '226', host);
  }
  const atSp = resultOf(await c.post('/ws/nferecepcaoevento4.asmx', envelope12('NFeRecepcaoEvento4', cancel), { host: 'homologacao.nfe.fazenda.sp.gov.br' }), 'retEnvEvento');
  t.is(lastTag(atSp.xml, 'cStat'), '135');
});

test('answers are shaped like the authority\'s: no Id on infProt, nProt of the UF\'s own authority, tpAmb 2, digVal', async (t) => {
  const note = aNote(c);
  const r = resultOf(await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: 'homologacao.nfe.fazenda.sp.gov.br' }), 'retEnviNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.regex(r.xml, /<protNFe versao="4.00"><infProt><tpAmb>2<\/tpAmb>/);
  t.regex(lastTag(r.xml, 'nProt')!, new RegExp(`^135${String(c.clock.now.getUTCFullYear()).slice(2)}\\d{10}$`));
  t.is(lastTag(r.xml, 'xMotivo'), 'Autorizado o uso da NF-e');
  t.truthy(tag(r.xml, 'digVal'));
});

test('a malformed envelope is a SOAP Fault with HTTP 500 in the version of the request', async (t) => {
  const broken12 = await c.post('/ws/SP/NFeStatusServico4.asmx', `<soap12:Envelope xmlns:soap12="${SOAP12}"><soap12:Body><nfeDadosMsg>`);
  t.is(broken12.status, 500);
  t.is(broken12.contentType, 'application/soap+xml; charset=utf-8');
  t.regex(broken12.body, /<soap:Fault><soap:Code><soap:Value>soap:Sender<\/soap:Value>/);
  const wrong11 = await c.post('/ws/SP/NFeStatusServico4.asmx', `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><x/></soap:Body></soap:Envelope>`, { contentType: 'text/xml', soapAction: `${STATUS_NS}/nfeStatusServicoNF` });
  t.is(wrong11.status, 500);
  t.is(wrong11.contentType, 'text/xml; charset=utf-8');
  t.regex(wrong11.body, /<soap:Fault><faultcode>soap:Client<\/faultcode><faultstring>Body sem nfeDadosMsg/);
});

test('a message over 500 KB answers 214 in the service\'s ret*, never a reset connection', async (t) => {
  const note = aNote(c);
  // Whitespace inside the message is kept by C14N: 520 KB of it between the batch fields.
  const big = enviNFe(note.xml).replace('<indSinc>', `${'\n'.repeat(520 * 1024)}<indSinc>`);
  const a = await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', big), { host: 'homologacao.nfe.fazenda.sp.gov.br' });
  t.is(a.status, 200);
  const r = resultOf(a, 'retEnviNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '214');
  t.is(tag(r.xml, 'xMotivo'), cstatText(214));
});

const FAULT11 = (code: string, text: string) => '<?xml version="1.0" encoding="utf-8"?>'
  + `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${text}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
const envelope11 = `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><nfeDadosMsg xmlns="${STATUS_NS}">${body}</nfeDadosMsg></soap:Body></soap:Envelope>`;
const SP_HOST = 'homologacao.nfe.fazenda.sp.gov.br';

test('SOAP 1.1 without SOAPAction, or with another operation\'s, is ASP.NET\'s Client fault with HTTP 500', async (t) => {
  const missing = await c.post('/ws/nfestatusservico4.asmx', envelope11, { contentType: 'text/xml; charset=utf-8', host: SP_HOST });
  t.deepEqual(missing, { status: 500, contentType: 'text/xml; charset=utf-8', body: FAULT11('Client', 'Server did not recognize the value of HTTP Header SOAPAction: .') });
  const foreign = `${WSDL_NS_BASE}NFeConsultaProtocolo4/nfeConsultaNF`;
  const wrong = await c.post('/ws/nfestatusservico4.asmx', envelope11, { contentType: 'text/xml; charset=utf-8', soapAction: `"${foreign}"`, host: SP_HOST });
  t.deepEqual(wrong, { status: 500, contentType: 'text/xml; charset=utf-8', body: FAULT11('Client', `Server did not recognize the value of HTTP Header SOAPAction: ${foreign}.`) });
});

test('an envelope of the other SOAP version than the Content-Type is a VersionMismatch fault in the Content-Type\'s version', async (t) => {
  const as12 = await c.post('/ws/nfestatusservico4.asmx', envelope11, { contentType: 'application/soap+xml; charset=utf-8', host: SP_HOST });
  t.deepEqual(as12, {
    status: 500, contentType: 'application/soap+xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="utf-8"?>'
      + `<soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:VersionMismatch</soap:Value></soap:Code>`
      + `<soap:Reason><soap:Text xml:lang="pt">Possible SOAP version mismatch: Envelope namespace ${SOAP11} was unexpected. Expecting ${SOAP12}.</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>`,
  });
  const as11 = await c.post('/ws/nfestatusservico4.asmx', envelope12('NFeStatusServico4', body), { contentType: 'text/xml; charset=utf-8', soapAction: `${STATUS_NS}/nfeStatusServicoNF`, host: SP_HOST });
  t.deepEqual(as11, {
    status: 500, contentType: 'text/xml; charset=utf-8',
    body: FAULT11('VersionMismatch', `Possible SOAP version mismatch: Envelope namespace ${SOAP12} was unexpected. Expecting ${SOAP11}.`),
  });
});

test('SOAP 1.2 ignores a SOAPAction header (as some clients send one) and matches the action case-insensitively in 1.1', async (t) => {
  const with12 = await c.post('/ws/nfestatusservico4.asmx', envelope12('NFeStatusServico4', body), { soapAction: 'anything', host: SP_HOST });
  t.is(tag(resultOf(with12, 'retConsStatServ').xml, 'cStat'), '107');
  const lower = await c.post('/ws/nfestatusservico4.asmx', envelope11, { contentType: 'text/xml', soapAction: `${WSDL_NS_BASE}NfeStatusServico4/nfeStatusServicoNF`, host: SP_HOST });
  t.is(tag(resultOf(lower, 'retConsStatServ').xml, 'cStat'), '107');
});

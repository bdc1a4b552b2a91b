import test from 'ava';
import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa, fabricatedRsaKey } from '../../support/certificates.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { decryptBytes as decryptSecret } from '../../../lib/crypto/aead.js';
import { aCnpj, aCompleteIssuer, as, SUPERADMIN } from './support.js';

let stack: Stack;
const clock = new ManualClock(new Date());
const ca = createCa();
const DAY = 86_400_000;

/** node:crypto's X509Certificate refuses the test CA's zero-padded serials; forge reads them. */
function x509(pem: string) {
  const c = forge.pki.certificateFromPem(pem);
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes();
  return {
    serial: c.serialNumber.replace(/^(00)+(?=[0-7])/, '').toUpperCase(),
    notBefore: c.validity.notBefore.toISOString(),
    notAfter: c.validity.notAfter.toISOString(),
    fingerprint: forge.md.sha256.create().update(der).digest().toHex(),
  };
}

test.before(async () => {
  stack = await startStack({ clock, nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
});
test.after.always(async () => { await stack?.stop(); });

async function newIssuer(partner: string, over: Record<string, unknown> = {}) {
  const res = await stack.request('POST', '/v1/companies', { headers: as(partner), body: aCompleteIssuer(over) });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { issuerId: string; cnpj: string };
}

function refusal(res: any, status: number, slug: string, detail: string, path: string, extra: Record<string, unknown> = {}) {
  return {
    actual: res.body,
    expected: { error: { type: `https://errors.test/${slug}`, title: 'Unprocessable Entity', status, detail, ...extra, instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error?.timestamp } },
  };
}

async function call(action: string, params: Record<string, unknown>) {
  return stack.nodes[0]!.call(action, params);
}

async function callError(action: string, params: Record<string, unknown>) {
  try {
    await call(action, params);
  } catch (err: any) {
    return { type: err.type, code: err.code, message: err.message, data: err.data };
  }
  throw new Error(`${action} did not fail`);
}

test.serial('certificate upload: every refusal is a 422 with its own code, nothing stored', async (t) => {
  const issuer = await newIssuer('pc1');
  const path = `/v1/companies/${issuer.issuerId}/certificate`;
  const good = createA1(ca, { cnpj: issuer.cnpj, password: 'certa' });
  const cases: [string, Record<string, unknown>, string, string, Record<string, unknown>?][] = [
    ['wrong password', { pfxBase64: good.pfxBase64, password: 'errada' }, 'CERTIFICADO_SENHA_INVALIDA', 'Senha do certificado incorreta.'],
    ['not a PKCS#12', { pfxBase64: Buffer.from('isto não é um pfx').toString('base64'), password: 'x' }, 'CERTIFICADO_INVALIDO', 'Arquivo não é um certificado PKCS#12 (A1) válido.'],
  ];
  const expired = createA1(ca, { cnpj: issuer.cnpj, notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) });
  cases.push(['expired', { pfxBase64: expired.pfxBase64, password: expired.password }, 'CERTIFICADO_EXPIRADO', `Certificado expirado em ${x509(expired.certPem).notAfter}.`, { details: { notAfter: x509(expired.certPem).notAfter } }]);
  const future = createA1(ca, { cnpj: issuer.cnpj, notBefore: new Date(Date.now() + 5 * DAY), notAfter: new Date(Date.now() + 400 * DAY) });
  const nb = x509(future.certPem).notBefore;
  cases.push(['not yet valid', { pfxBase64: future.pfxBase64, password: future.password }, 'CERTIFICADO_AINDA_NAO_VALIDO', `Certificado válido somente a partir de ${nb}.`, { details: { notBefore: nb } }]);
  const otherCnpj = aCnpj();
  const foreign = createA1(ca, { cnpj: otherCnpj });
  cases.push(['CNPJ of another company (OID)', { pfxBase64: foreign.pfxBase64, password: foreign.password }, 'CERTIFICADO_CNPJ_DIVERGENTE', 'CNPJ do certificado difere do CNPJ do emissor.', { details: { cnpjCertificado: otherCnpj, cnpjEmissor: issuer.cnpj } }]);
  const foreignCn = createA1(ca, { cnpj: otherCnpj, cnOnly: true });
  cases.push(['CNPJ of another company (CN only)', { pfxBase64: foreignCn.pfxBase64, password: foreignCn.password }, 'CERTIFICADO_CNPJ_DIVERGENTE', 'CNPJ do certificado difere do CNPJ do emissor.', { details: { cnpjCertificado: otherCnpj, cnpjEmissor: issuer.cnpj } }]);
  const sameRoot = createA1(ca, { cnpj: `${issuer.cnpj.slice(0, 8)}0002${'00'}` });
  const sameRootCnpj = sameRoot.cnpj;
  cases.push(['same 8-digit root, other branch', { pfxBase64: sameRoot.pfxBase64, password: sameRoot.password }, 'CERTIFICADO_CNPJ_DIVERGENTE', 'CNPJ do certificado difere do CNPJ do emissor.', { details: { cnpjCertificado: sameRootCnpj, cnpjEmissor: issuer.cnpj } }]);

  const hugeKey = createA1(ca, { cnpj: issuer.cnpj, key: fabricatedRsaKey(16384) });
  const nulSubject = createA1(ca, { cnpj: issuer.cnpj, razaoSocial: 'EMPRESA\u0000NULA' });
  cases.push(['U+0000 in the subject (a 500 at the jsonb write before)', { pfxBase64: nulSubject.pfxBase64, password: nulSubject.password }, 'CERTIFICADO_INVALIDO', 'Titular do certificado com caractere não permitido (U+0000 ou surrogate UTF-16 isolado).']);
  cases.push(['RSA key of 16384 bits', { pfxBase64: hugeKey.pfxBase64, password: hugeKey.password }, 'CERTIFICADO_INVALIDO', 'Chave RSA de 16384 bits: o A1 ICP-Brasil usa chave de 2048 ou 4096 bits.', { details: { bitsChave: 16384, bitsMaximos: 4096 } }]);

  for (const [name, body, slug, detail, extra] of cases) {
    const res = await stack.request('POST', path, { headers: as('pc1'), body });
    t.is(res.status, 422, name);
    const { actual, expected } = refusal(res, 422, slug, detail, path, extra);
    t.deepEqual(actual, expected, name);
  }
  const notBase64 = await stack.request('POST', path, { headers: as('pc1'), body: { pfxBase64: '#####', password: 'x' } });
  t.is(notBase64.status, 400);
  t.deepEqual(notBase64.body.error.errors.map((e: any) => e.field), ['pfxBase64']);
  const tooBig = await stack.request('POST', path, { headers: as('pc1'), body: { pfxBase64: 'A'.repeat(70_000), password: 'x' } });
  t.is(tooBig.status, 400);

  const row = await stack.knex('issuer.issuers').where({ id: issuer.issuerId }).first();
  t.is(row.cert_pfx, null);
  t.is(row.cert_summary, null);
});

test.serial('certificate upload: 201 with the summary, replaced with 200; shown on the issuer; CN-only CNPJ accepted', async (t) => {
  const issuer = await newIssuer('pc2');
  const path = `/v1/companies/${issuer.issuerId}/certificate`;
  const a1 = createA1(ca, { cnpj: issuer.cnpj, razaoSocial: 'EMPRESA CN' });
  const cert = x509(a1.certPem);
  const res = await stack.request('POST', path, { headers: as('pc2'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  t.is(res.status, 201, JSON.stringify(res.body));
  const summary = { subject: `CN=EMPRESA CN:${issuer.cnpj}, C=BR, O=ICP-Brasil`, serial: cert.serial, notBefore: cert.notBefore, notAfter: cert.notAfter, cnpj: issuer.cnpj };
  t.deepEqual(res.body, { data: { issuerId: issuer.issuerId, certificado: summary }, meta: res.body.meta });
  const shown = await stack.request('GET', `/v1/companies/${issuer.issuerId}`, { headers: as('pc2') });
  t.deepEqual(shown.body.data.certificado, summary);
  t.false(shown.text.includes(a1.password));

  const cnOnly = createA1(ca, { cnpj: issuer.cnpj, cnOnly: true });
  const replaced = await stack.request('POST', path, { headers: as('pc2'), body: { pfxBase64: cnOnly.pfxBase64, password: cnOnly.password } });
  t.is(replaced.status, 200);
  t.is(replaced.body.data.certificado.cnpj, issuer.cnpj);
  t.is(replaced.body.data.certificado.serial, x509(cnOnly.certPem).serial);

  const foreign = await stack.request('POST', path, { headers: as('pc-other'), body: { pfxBase64: cnOnly.pfxBase64, password: cnOnly.password } });
  t.is(foreign.status, 404);

  const cnpjChange = await stack.request('PATCH', `/v1/companies/${issuer.issuerId}`, { headers: as('pc2'), body: { cnpj: aCnpj() } });
  t.is(cnpjChange.status, 422);
  t.is(cnpjChange.body.error.type, 'https://errors.test/CERTIFICADO_CNPJ_DIVERGENTE');

  const removed = await stack.request('DELETE', path, { headers: as('pc2') });
  t.is(removed.status, 200);
  t.deepEqual(removed.body.data, { issuerId: issuer.issuerId, certificado: null });
  t.is((await stack.request('GET', `/v1/companies/${issuer.issuerId}`, { headers: as('pc2') })).body.data.certificado, null);
});

test.serial('encryption at rest: the raw row holds neither the PFX nor its password in clear; the configured key opens it', async (t) => {
  const issuer = await newIssuer('pc3');
  const a1 = createA1(ca, { cnpj: issuer.cnpj, password: 'Senha-Muito-Secreta-123' });
  t.is((await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as('pc3'), body: { pfxBase64: a1.pfxBase64, password: a1.password } })).status, 201);
  const row = await stack.knex('issuer.issuers').where({ id: issuer.issuerId }).first();
  const dump = JSON.stringify(row);
  const pfx = Buffer.from(a1.pfxBase64, 'base64');
  t.false(dump.includes(a1.password));
  t.false(dump.includes(a1.pfxBase64.slice(100, 160)));
  t.false(dump.includes(pfx.subarray(100, 140).toString('hex')));
  t.false(dump.includes(pfx.subarray(100, 140).toString('base64url').slice(0, 40)));
  const raw = await stack.knex.raw(`select convert_to(cert_pfx, 'UTF8') as b from issuer.issuers where id = ?`, [issuer.issuerId]);
  t.is(Buffer.from(raw.rows[0].b).indexOf(pfx.subarray(64, 96)), -1);
  t.regex(row.cert_pfx, /^v1\.k1\./);
  t.regex(row.cert_password, /^v1\.k1\./);
  t.deepEqual(decryptSecret(row.cert_pfx, stack.config.encryptionKeys, `issuer:${issuer.issuerId}:pfx`), pfx);
  t.is(decryptSecret(row.cert_password, stack.config.encryptionKeys, `issuer:${issuer.issuerId}:pfx-password`).toString(), a1.password);
  // A blob moved to another row does not open there (associated data binds it to its issuer).
  t.throws(() => decryptSecret(row.cert_pfx, stack.config.encryptionKeys, 'issuer:00000000-0000-4000-8000-000000000000:pfx'));

  const material: any = await call('v1.issuer.signingMaterial', { issuerId: issuer.issuerId });
  t.is(x509(material.certPem).fingerprint, x509(a1.certPem).fingerprint);
  t.is(createPrivateKey(material.keyPem).export({ type: 'pkcs8', format: 'pem' }), createPrivateKey(a1.keyPem).export({ type: 'pkcs8', format: 'pem' }));
  t.is(material.chainPem.length, 1);
  t.is(material.fingerprint, row.cert_fingerprint);
  t.is(material.notAfter, x509(a1.certPem).notAfter);
  t.is(material.issuerId, issuer.issuerId);
});

test.serial('forEmission: issuer selection (rule 2) and test key against production (rule 3)', async (t) => {
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-none', model: '55', keyKind: 'live' }), { type: 'NOT_FOUND', code: 404 });

  const one = await newIssuer('p-one');
  const a1 = createA1(ca, { cnpj: one.cnpj });
  await stack.request('POST', `/v1/companies/${one.issuerId}/certificate`, { headers: as('p-one'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  const ok: any = await call('v1.issuer.forEmission', { partnerId: 'p-one', model: '55', keyKind: 'live' });
  t.is(ok.issuer.id, one.issuerId);
  t.is(ok.certificate.serial, x509(a1.certPem).serial);
  t.deepEqual(ok.issuer, {
    id: one.issuerId, partnerId: 'p-one', cnpj: one.cnpj, razaoSocial: 'EMPRESA TESTE LTDA', nomeFantasia: 'TESTE', ie: '110042490114', inscricaoMunicipal: null, cnae: null, crt: 1,
    endereco: { logradouro: 'Rua das Flores', numero: '100', complemento: null, bairro: 'Centro', codigoMunicipio: '3550308', municipio: 'São Paulo', uf: 'SP', cep: '01001000', telefone: '1133334444' },
    ambienteFiscal: 2, sandbox: false, csc: null, cscId: null, serieNfe: 1, serieNfce: 1, serieNfse: 1, valorAproximadoTributosEnabled: false, fiscalBrainEnabled: false, formatoDanfe: 1,
    servicoPadraoLc116: null, cTribNacPadrao: null, pTotTribSNPadrao: null, pTotTribSNCompetencia: null, sefazUrl: null,
    codigoNbsPadrao: null, tribIssqnPadrao: null, indDestPadrao: null, regEspTribPadrao: null, email: null,
  });
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-one', model: 'NFSe', keyKind: 'live' }), { type: 'BAD_REQUEST', code: 400, message: 'informe issuerId: NFS-e exige issuerId' });

  const second = await newIssuer('p-one');
  t.deepEqual(await callError('v1.issuer.forEmission', { partnerId: 'p-one', model: '55', keyKind: 'live' }), { type: 'BAD_REQUEST', code: 400, message: 'informe issuerId: sua conta tem 2 emissores', data: undefined });
  t.like(await callError('v1.issuer.resolve', { partnerId: 'p-one', keyKind: 'live' }), { type: 'BAD_REQUEST', message: 'informe issuerId: sua conta tem 2 emissores' });
  t.deepEqual(await call('v1.issuer.resolve', { partnerId: 'p-one', issuerId: second.issuerId, keyKind: 'test' }), { issuerId: second.issuerId, cnpj: second.cnpj, ambienteFiscal: 2, sandbox: false });

  await newIssuer('p-one');
  // Only two rows are read per note; the count comes from the partner's index when it is needed.
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-one', model: '55', keyKind: 'live' }), { type: 'BAD_REQUEST', message: 'informe issuerId: sua conta tem 3 emissores' });
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: 'not-a-uuid', model: '55', keyKind: 'live' }), { type: 'NOT_FOUND', code: 404, message: 'Emissor não encontrado.' });
  t.is(((await call('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: one.issuerId, model: '55', keyKind: 'live', preflight: 'report' })) as any).certificate.fingerprint, ok.certificate.fingerprint);
  t.regex(ok.certificate.fingerprint, /^[0-9a-f]{40,64}$/i);

  const foreign = await newIssuer('p-foreign');
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: foreign.issuerId, model: '55', keyKind: 'live' }), { type: 'NOT_FOUND', code: 404, message: 'Emissor não encontrado.' });
  t.like(await callError('v1.issuer.get', { partnerId: 'p-one', issuerId: foreign.issuerId }), { type: 'NOT_FOUND', code: 404 });
  t.like(await call('v1.issuer.get', { partnerId: 'p-one', issuerId: one.issuerId }) as any, { issuerId: one.issuerId, certificado: { cnpj: one.cnpj } });

  // Production only through the SUPERADMIN route; then ek_test_ is refused unless sandbox.
  const prod = await stack.request('PATCH', `/v1/admin/companies/${one.issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { ambienteFiscal: 1 } });
  t.is(prod.status, 200, JSON.stringify(prod.body));
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: one.issuerId, model: '55', keyKind: 'test' }), { type: 'CHAVE_TESTE_EMISSOR_PRODUCAO', code: 403, message: 'Chave ek_test_ só opera emissores em homologação ou sandbox.' });
  t.like(await callError('v1.issuer.resolve', { partnerId: 'p-one', issuerId: one.issuerId, keyKind: 'test' }), { type: 'CHAVE_TESTE_EMISSOR_PRODUCAO', code: 403 });
  t.is(((await call('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: one.issuerId, model: '55', keyKind: 'live' })) as any).issuer.ambienteFiscal, 1);
  await stack.request('PATCH', `/v1/admin/companies/${one.issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { sandbox: true } });
  t.is(((await call('v1.issuer.forEmission', { partnerId: 'p-one', issuerId: one.issuerId, model: '55', keyKind: 'test' })) as any).issuer.sandbox, true);
  const notAdmin = await stack.request('PATCH', `/v1/admin/companies/${one.issuerId}/ambiente`, { headers: as('p-one', { scheme: 'jwt', role: 'ADMIN' }), body: { ambienteFiscal: 2 } });
  t.is(notAdmin.status, 403);
});

test.serial('forEmission preflight (rule 4): certificate, then every missing field at once, then CSC for NFC-e', async (t) => {
  const bare = (await stack.request('POST', '/v1/companies', { headers: as('p-pre'), body: { cnpj: aCnpj(), razaoSocial: 'SO O NOME LTDA' } })).body.data;
  t.deepEqual(await callError('v1.issuer.forEmission', { partnerId: 'p-pre', model: '55', keyKind: 'live' }), { type: 'CERTIFICADO_AUSENTE', code: 422, message: 'Emissor sem certificado A1 válido instalado.', data: undefined });

  const a1 = createA1(ca, { cnpj: bare.cnpj, notAfter: new Date(clock.now().getTime() + 40 * DAY) });
  await stack.request('POST', `/v1/companies/${bare.issuerId}/certificate`, { headers: as('p-pre'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  const allMissing = ['ie', 'crt', 'endereco.logradouro', 'endereco.numero', 'endereco.bairro', 'endereco.codigoMunicipio', 'endereco.municipio', 'endereco.uf', 'endereco.cep'];
  t.deepEqual(await callError('v1.issuer.forEmission', { partnerId: 'p-pre', model: '55', keyKind: 'live' }), {
    type: 'CADASTRO_EMISSOR_INCOMPLETO', code: 422, message: `Cadastro do emissor incompleto: ${allMissing.join(', ')}.`, data: { camposFaltando: allMissing },
  });
  t.deepEqual((await callError('v1.issuer.forEmission', { partnerId: 'p-pre', issuerId: bare.issuerId, model: 'NFSe', keyKind: 'live' })).data, { camposFaltando: ['crt', 'inscricaoMunicipal', ...allMissing.filter((f) => f !== 'ie' && f !== 'crt')] });

  await stack.request('PATCH', `/v1/companies/${bare.issuerId}`, { headers: as('p-pre'), body: { ie: 'ISENTO', crt: 2, endereco: { logradouro: 'Av Brasil', numero: 'SN', bairro: 'Centro', codigoMunicipio: '3304557', uf: 'RJ', cep: '20000000' } } });
  t.is(((await call('v1.issuer.forEmission', { partnerId: 'p-pre', model: '55', keyKind: 'live' })) as any).issuer.endereco.municipio, 'Rio de Janeiro');
  t.deepEqual(await callError('v1.issuer.forEmission', { partnerId: 'p-pre', model: '65', keyKind: 'live' }), { type: 'CSC_AUSENTE', code: 422, message: 'NFC-e exige csc e cscId cadastrados no emissor.', data: { camposFaltando: ['csc', 'cscId'] } });
  await stack.request('PATCH', `/v1/companies/${bare.issuerId}`, { headers: as('p-pre'), body: { csc: 'ABCDEF123456', cscId: '1' } });
  t.like(await call('v1.issuer.forEmission', { partnerId: 'p-pre', model: '65', keyKind: 'live' }) as any, { issuer: { csc: 'ABCDEF123456', cscId: '1', ie: 'ISENTO', crt: 2 } });

  // An installed certificate that has since expired counts as absent.
  const start = clock.now();
  clock.set(new Date(start.getTime() + 41 * DAY));
  const expired = await callError('v1.issuer.forEmission', { partnerId: 'p-pre', model: '65', keyKind: 'live' });
  clock.set(start);
  t.like(expired, { type: 'CERTIFICADO_AUSENTE', code: 422 });
  t.regex(expired.message, /^Certificado A1 do emissor expirou em /);
});

test.serial("forEmission preflight: 'report' returns the refusal with the issuer; selection and the test-key rule still throw", async (t) => {
  const bare = (await stack.request('POST', '/v1/companies', { headers: as('p-rep'), body: { cnpj: aCnpj(), razaoSocial: 'SO O NOME LTDA' } })).body.data;
  const report = (model: string, keyKind = 'live', issuerId?: string) => call('v1.issuer.forEmission', { partnerId: 'p-rep', model, keyKind, preflight: 'report', ...(issuerId ? { issuerId } : {}) }) as Promise<any>;

  const noCert = await report('55');
  t.deepEqual(noCert.preflight, { type: 'CERTIFICADO_AUSENTE', data: null, message: 'Emissor sem certificado A1 válido instalado.' });
  t.is(noCert.issuer.id, bare.issuerId);
  t.is(noCert.certificate, null);
  // The default mode still throws it.
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-rep', model: '55', keyKind: 'live' }), { type: 'CERTIFICADO_AUSENTE', code: 422 });

  const a1 = createA1(ca, { cnpj: bare.cnpj });
  await stack.request('POST', `/v1/companies/${bare.issuerId}/certificate`, { headers: as('p-rep'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  const allMissing = ['ie', 'crt', 'endereco.logradouro', 'endereco.numero', 'endereco.bairro', 'endereco.codigoMunicipio', 'endereco.municipio', 'endereco.uf', 'endereco.cep'];
  t.deepEqual((await report('55')).preflight, { type: 'CADASTRO_EMISSOR_INCOMPLETO', data: { camposFaltando: allMissing }, message: `Cadastro do emissor incompleto: ${allMissing.join(', ')}.` });

  await stack.request('PATCH', `/v1/companies/${bare.issuerId}`, { headers: as('p-rep'), body: { ie: 'ISENTO', crt: 2, endereco: { logradouro: 'Av Brasil', numero: 'SN', bairro: 'Centro', codigoMunicipio: '3304557', uf: 'RJ', cep: '20000000' } } });
  t.deepEqual((await report('65')).preflight, { type: 'CSC_AUSENTE', data: { camposFaltando: ['csc', 'cscId'] }, message: 'NFC-e exige csc e cscId cadastrados no emissor.' });
  const ready = await report('55');
  t.is(ready.preflight, null);
  t.is(ready.certificate.serial, x509(a1.certPem).serial);

  // Selection and the test key against production are never reported: they throw.
  await stack.request('PATCH', `/v1/admin/companies/${bare.issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { ambienteFiscal: 1 } });
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-rep', model: '55', keyKind: 'test', preflight: 'report' }), { type: 'CHAVE_TESTE_EMISSOR_PRODUCAO', code: 403 });
  await newIssuer('p-rep');
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-rep', model: '55', keyKind: 'live', preflight: 'report' }), { type: 'BAD_REQUEST', code: 400, message: 'informe issuerId: sua conta tem 2 emissores' });
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-rep', model: '55', keyKind: 'live', preflight: 'maybe' }), { type: 'VALIDATION_ERROR', code: 400 });
});

test.serial('DELETE /v1/companies/{id}: secrets wiped, CNPJ free again, the id answers 404 EMISSOR_INEXISTENTE', async (t) => {
  const gone = await newIssuer('p-del');
  const kept = await newIssuer('p-del');
  const a1 = createA1(ca, { cnpj: gone.cnpj });
  await stack.request('POST', `/v1/companies/${gone.issuerId}/certificate`, { headers: as('p-del'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  t.is((await stack.request('DELETE', `/v1/companies/${gone.issuerId}`, { headers: as('p-other-del') })).status, 404);

  const res = await stack.request('DELETE', `/v1/companies/${gone.issuerId}`, { headers: as('p-del') });
  t.is(res.status, 200);
  t.deepEqual(res.body.data, { issuerId: gone.issuerId, removedAt: clock.now().toISOString() });
  const row = await stack.knex('issuer.issuers').where({ id: gone.issuerId }).first();
  t.like(row, { cert_pfx: null, cert_password: null, cert_summary: null });

  const path = `/v1/companies/${gone.issuerId}`;
  const get = await stack.request('GET', path, { headers: as('p-del') });
  t.is(get.status, 404);
  t.deepEqual(get.body, { error: { type: 'https://errors.test/EMISSOR_INEXISTENTE', title: 'Not Found', status: 404, detail: 'Emissor não existe mais.', instance: path, requestId: get.headers.get('x-request-id'), timestamp: get.body.error.timestamp } });
  t.deepEqual((await stack.request('GET', '/v1/companies', { headers: as('p-del') })).body.data.items.map((i: any) => i.issuerId), [kept.issuerId]);
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-del', issuerId: gone.issuerId, model: '55', keyKind: 'live' }), { type: 'EMISSOR_INEXISTENTE', code: 404 });
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-x', issuerId: gone.issuerId, model: '55', keyKind: 'live' }), { type: 'NOT_FOUND', code: 404 });
  t.like(await callError('v1.issuer.signingMaterial', { issuerId: gone.issuerId }), { type: 'CERTIFICADO_AUSENTE' });
  // One live issuer left: issuerId is optional again.
  t.like(await callError('v1.issuer.forEmission', { partnerId: 'p-del', model: '55', keyKind: 'live' }), { type: 'CERTIFICADO_AUSENTE' });
  const again = await stack.request('POST', '/v1/companies', { headers: as('p-new'), body: aCompleteIssuer({ cnpj: gone.cnpj }) });
  t.is(again.status, 201);
});

test.serial('base64 uploads: a long run of line breaks ending in a foreign character is refused 400 in milliseconds (quadratic pattern before)', async (t) => {
  const issuer = await newIssuer('pc-b64');
  for (const [path, method, field, size] of [
    [`/v1/companies/${issuer.issuerId}/logo`, 'PUT', 'imagemBase64', 100_000],
    [`/v1/companies/${issuer.issuerId}/certificate`, 'POST', 'pfxBase64', 65_000],
  ] as const) {
    const started = performance.now();
    const res = await stack.request(method, path, { headers: as('pc-b64'), body: { [field]: `${'\n'.repeat(size)}!`, ...(field === 'pfxBase64' ? { password: 'x' } : {}) } });
    const ms = performance.now() - started;
    t.is(res.status, 400, res.text);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/VALIDATION_ERROR', title: 'Bad Request', status: 400, detail: 'Dados de entrada inválidos.',
        errors: [{ field, message: `O campo '${field}' deve ser um arquivo em base64.` }],
        instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
      },
    });
    t.true(ms < 1000, `${field}: ${ms.toFixed(0)} ms`);
  }
});

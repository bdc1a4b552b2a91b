import test from 'ava';
import { STATUS_CODES } from 'node:http';
import { type HttpResult, type Stack } from '../../support/stack.js';
import { aValidNfseBody, NFSE_ISSUER } from '../../support/nfse-factories.js';
import { companyWithA1, integratorWithA1 } from '../../support/e2e.js';
import { createPartnerWithKey } from '../../support/identity.js';
import { assertEnvelope } from '../../support/assisted-taxation.js';
import { SefinStandIn, standInStack } from '../../support/sefin-stand-in.js';
import { verifyDfe } from '../../support/verify-dfe.js';
import { ManualClock } from '../../../services/shared/clock.js';

/**
 * POST /v1/nfse after the refusals: Sefin's answers (authorized, rejected with erros[] verbatim,
 * E0037, lost after processing), reconciliation by idDps, cancellation and Idempotency-Key, over
 * HTTP with the real gateway, auth, issuer and emission on Postgres, and a programmable stand-in for
 * the v1.sefaz NFS-e actions (test/support/sefin-stand-in.ts).
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
const sefin = new SefinStandIn();
const clock = new ManualClock(new Date());

test.before(async () => {
  ({ stack, headers, issuerId } = await standInStack(sefin, clock, ['webhook-dispatcher']));
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => {
  sefin.submit = { kind: 'authorize' };
  sefin.event = 'register';
});

const post = (body: unknown, extra: Record<string, string> = {}) => stack.request('POST', '/v1/nfse', { headers: { ...headers, ...extra }, body });
const events = async (type: string, nfseId: string) => (await stack.knex('emission.outbox').select('payload'))
  .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
  .filter((p: any) => p.type === type && p.data?.nfseId === nfseId);

function envelope(res: HttpResult, status: number, slug: string, detail: string, extra: Record<string, unknown> = {}) {
  return {
    error: {
      type: `https://errors.test/${slug}`, title: STATUS_CODES[status], status, detail, ...extra,
      instance: res.body.error.instance, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  };
}

test.serial('authorized: 201 with chaveAcesso, numero, nDPS, the signed DPS passes verify-dfe, invoice.authorized with nfseId in the outbox', async (t) => {
  const res = await post(aValidNfseBody({ issuerId }));
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'AUTHORIZED', model: 'NFSe', numero: '1', serie: 1, nDPS: 1, amount: '1500.00', issuerId, avisos: [], alertas: [] });
  t.regex(d.chaveAcesso, /^\d{50}$/);
  t.deepEqual(d.links, { self: `/v1/nfse/${d.id}`, xml: `/v1/nfse/${d.id}/xml`, cancelamento: `/v1/nfse/${d.id}/cancelamento`, danfse: `/v1/nfse/${d.id}/danfse.pdf`, danfseHtml: `/v1/nfse/${d.id}/danfse.html` });

  const sent = sefin.calls.filter((c) => c.action === 'nfseSubmit').at(-1)!.params;
  t.is(sent.idDps, d.idDps);
  const check = verifyDfe({ dps: sent.signedDpsXml });
  t.true(check.ok, check.output);

  const got = await stack.request('GET', `/v1/nfse/${d.id}`, { headers });
  t.like(got.body.data, { id: d.id, status: 'AUTHORIZED', chaveAcesso: d.chaveAcesso, situacao: null, erros: null });
  const xml = await stack.request('GET', `/v1/nfse/${d.id}/xml`, { headers });
  t.is(xml.status, 200);
  t.is(xml.headers.get('content-disposition'), `attachment; filename="${d.chaveAcesso}-nfse.xml"`);
  t.true(xml.text.startsWith('<NFSe ') && xml.text.includes(`<infDPS Id="${d.idDps}">`));

  const authorized = await events('invoice.authorized', d.id);
  t.is(authorized.length, 1);
  t.like(authorized[0].data, { nfseId: d.id, model: 'NFSe', number: 1, series: 1, chaveAcesso: d.chaveAcesso, status: 'AUTHORIZED', amount: '1500.00' });
  const mun = await stack.knex('emission.nfse_municipalities').where({ codigo_municipio: '3550308', environment: 2 }).first();
  t.is(mun.adesao, 'aderente');
  const usage = await stack.nodes[0]!.call('v1.emission.usage', { partnerId: authorized[0].partnerId, period: new Date().toISOString().slice(0, 7) }) as any[];
  t.deepEqual(usage, [{ model: 'NFSe', environment: 2, keyKind: 'live', billable: true, count: 1 }]);
});

test.serial('Idempotency-Key: the same request answers the original 201 and sends nothing', async (t) => {
  const body = aValidNfseBody({ issuerId });
  const first = await post(body, { 'Idempotency-Key': 'dps-idem-1' });
  t.is(first.status, 201);
  const sends = sefin.count('nfseSubmit');
  const again = await post(body, { 'Idempotency-Key': 'dps-idem-1' });
  t.is(again.status, 201);
  t.deepEqual(again.body.data, first.body.data);
  t.is(sefin.count('nfseSubmit'), sends);
});

test.serial('rejected: 400 BAD_REQUEST with erros[] verbatim, the signed DPS at /xml, invoice.rejected', async (t) => {
  const erros = [{ codigo: 'E0312', descricao: 'Código de tributação nacional inexistente.' }, { codigo: 'E0699', descricao: 'Alíquota do ISSQN inválida.' }];
  sefin.submit = { kind: 'reject', erros };
  const res = await post(aValidNfseBody({ issuerId }));
  t.is(res.status, 400);
  const nfseId = res.body.error.details.nfseId;
  t.deepEqual(res.body, envelope(res, 400, 'BAD_REQUEST', 'E0312 - Código de tributação nacional inexistente.; E0699 - Alíquota do ISSQN inválida.', {
    erros, details: { nfseId, status: 'REJECTED', idDps: res.body.error.details.idDps },
  }));
  const xml = await stack.request('GET', `/v1/nfse/${nfseId}/xml`, { headers });
  t.true(xml.text.startsWith('<DPS '));
  const danfse = await stack.request('GET', `/v1/nfse/${nfseId}/danfse.pdf`, { headers });
  t.deepEqual(danfse.body, envelope(danfse, 409, 'DOCUMENTO_SEM_DANFE', 'Documento sem DANFE: só documentos autorizados, cancelados ou NFC-e emitida em contingência têm documento auxiliar.', { details: { status: 'REJECTED' } }));
  const rejected = await events('invoice.rejected', nfseId);
  t.is(rejected.length, 1);
  t.like(rejected[0].data, { nfseId, model: 'NFSe', status: 'REJECTED', chaveAcesso: null, erros });
});

test.serial('E0037: 400 with details.mensagemSefin, the municipality becomes nao_aderente, the next DPS is 422 before numbering', async (t) => {
  const rj = await companyWithA1(stack, headers, { ...NFSE_ISSUER, endereco: { logradouro: 'Rua A', numero: '1', bairro: 'Centro', codigoMunicipio: '3304557', uf: 'RJ', cep: '20010000' } });
  const mensagem = 'O código do município emissor informado na DPS é inexistente no cadastro de convênio municipal do sistema nacional.';
  sefin.submit = { kind: 'reject', erros: [{ codigo: 'E0037', descricao: mensagem }] };
  const res = await post(aValidNfseBody({ issuerId: rj.issuerId }));
  t.is(res.status, 400);
  t.deepEqual(res.body, envelope(res, 400, 'BAD_REQUEST', `E0037 - ${mensagem}`, {
    erros: [{ codigo: 'E0037', descricao: mensagem }],
    details: { nfseId: res.body.error.details.nfseId, status: 'REJECTED', idDps: res.body.error.details.idDps, mensagemSefin: mensagem, codigoMunicipio: '3304557' },
  }));
  const sends = sefin.count('nfseSubmit');
  const next = await post(aValidNfseBody({ issuerId: rj.issuerId }));
  t.is(next.status, 422);
  t.deepEqual(next.body, envelope(next, 422, 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', 'Município não aderente ao padrão nacional neste ambiente.', { details: { codigoMunicipio: '3304557', mensagemSefin: mensagem } }));
  t.is(sefin.count('nfseSubmit'), sends);
  const numbered = await stack.knex('emission.nfse_documents').where({ issuer_id: rj.issuerId }).count('* as n');
  t.is(Number(numbered[0]!.n), 1, 'the refused DPS used no number');
});

test.serial('answer lost after processing: 201 TRANSMITTING, listed indeterminada, reconciliation by idDps ends AUTHORIZED with exactly one invoice.authorized', async (t) => {
  sefin.submit = { kind: 'drop-after-processing' };
  const res = await post(aValidNfseBody({ issuerId }));
  t.is(res.status, 201);
  const { id, idDps } = res.body.data;
  t.like(res.body.data, { status: 'TRANSMITTING', chaveAcesso: null, numero: null });
  const open = await stack.request('GET', '/v1/nfse?situacao=indeterminada', { headers });
  t.deepEqual(open.body.data.items.map((i: any) => [i.id, i.idDps, i.situacao]), [[id, idDps, 'indeterminada']]);

  sefin.submit = { kind: 'authorize' };
  clock.advance(3 * 60_000);
  const round = await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {}) as any;
  t.deepEqual(round.outcomes, [{ id, status: 'AUTHORIZED' }]);
  t.is(sefin.calls.filter((c) => c.action === 'nfseSubmit' && c.params.idDps === idDps).length, 1, 'never resent blindly');
  const got = await stack.request('GET', `/v1/nfse/${id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', situacao: null, chaveAcesso: sefin.issued.get(idDps)!.chaveAcesso });
  clock.advance(3 * 60_000);
  await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {});
  t.is((await events('invoice.authorized', id)).length, 1);
});

test.serial('nothing reached Sefin: ERROR; reconciliation finds no DPS and sends the same DPS again (same idDps)', async (t) => {
  sefin.submit = { kind: 'fail' };
  const res = await post(aValidNfseBody({ issuerId }));
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'ERROR' });
  sefin.submit = { kind: 'authorize' };
  clock.advance(3 * 60_000);
  await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {});
  const got = await stack.request('GET', `/v1/nfse/${res.body.data.id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', idDps: res.body.data.idDps, nDPS: res.body.data.nDPS });
});

test.serial('a DPS a crash left CREATED (numbered, never sent) is sent by reconciliation under its own idDps', async (t) => {
  sefin.submit = { kind: 'fail' };
  const res = await post(aValidNfseBody({ issuerId }));
  const { id, idDps } = res.body.data;
  // As if the process died between the numbering commit and TRANSMITTING: nothing of it reached Sefin.
  await stack.knex('emission.nfse_documents').where({ id }).update({ status: 'CREATED', transmissions: 0, transmitting_until: null });
  sefin.submit = { kind: 'authorize' };
  clock.advance(3 * 60_000);
  const round = await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {}) as any;
  t.deepEqual(round.outcomes.filter((o: any) => o.id === id), [{ id, status: 'AUTHORIZED' }]);
  t.true(sefin.calls.some((c) => c.action === 'nfseConsultDps' && c.params.idDps === idDps), 'consulted before sending');
  t.is((await events('invoice.authorized', id)).length, 1);
});

test.serial('POST /v1/nfse/{id}/reenvio sends the same DPS now: ERROR → AUTHORIZED under the same idDps; a final NFS-e sends nothing', async (t) => {
  sefin.submit = { kind: 'fail' };
  const res = await post(aValidNfseBody({ issuerId }));
  t.like(res.body.data, { status: 'ERROR' });
  sefin.submit = { kind: 'authorize' };
  const again = await stack.request('POST', `/v1/nfse/${res.body.data.id}/reenvio`, { headers, body: {} });
  t.is(again.status, 200, again.text);
  t.like(again.body.data, { id: res.body.data.id, status: 'AUTHORIZED', idDps: res.body.data.idDps, nDPS: res.body.data.nDPS });
  const sends = sefin.count('nfseSubmit');
  const done = await stack.request('POST', `/v1/nfse/${res.body.data.id}/reenvio`, { headers, body: {} });
  t.like(done.body.data, { status: 'AUTHORIZED' });
  t.is(sefin.count('nfseSubmit'), sends);
});

test.serial('cancellation: 200 CANCELADA with invoice.canceled; repeating it sends nothing; a second NFS-e not authorized is 422', async (t) => {
  const doc = (await post(aValidNfseBody({ issuerId }))).body.data;
  const justificativa = 'Servico faturado em duplicidade para o tomador';
  const res = await stack.request('POST', `/v1/nfse/${doc.id}/cancelamento`, { headers, body: { justificativa } });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, { tipo: 'cancelamento', evento: 'e101101', status: 'REGISTERED', codigoMotivo: 1, justificativa, documento: { id: doc.id, status: 'CANCELADA' } });
  const sentEvent = sefin.calls.filter((c) => c.action === 'nfseEvent').at(-1)!.params;
  t.is(sentEvent.chaveAcesso, doc.chaveAcesso);
  t.regex(sentEvent.signedEventXml, new RegExp(`^<pedRegEvento [^>]*><infPedReg Id="PRE${doc.chaveAcesso}101101">`));
  const canceled = await events('invoice.canceled', doc.id);
  t.is(canceled.length, 1);
  t.like(canceled[0].data, { nfseId: doc.id, model: 'NFSe', status: 'CANCELADA', justificativa });

  const sends = sefin.count('nfseEvent');
  const again = await stack.request('POST', `/v1/nfse/${doc.id}/cancelamento`, { headers, body: { justificativa } });
  t.is(again.status, 200);
  t.is(again.body.data.id, res.body.data.id);
  t.is(sefin.count('nfseEvent'), sends);
  const xml = await stack.request('GET', `/v1/nfse/${doc.id}/cancelamento/xml`, { headers });
  t.is(xml.status, 200);

  sefin.submit = { kind: 'reject', erros: [{ codigo: 'E0001', descricao: 'x' }] };
  const rejected = await post(aValidNfseBody({ issuerId }));
  const refused = await stack.request('POST', `/v1/nfse/${rejected.body.error.details.nfseId}/cancelamento`, { headers, body: { justificativa } });
  t.is(refused.status, 422);
  t.deepEqual(refused.body, envelope(refused, 422, 'DOCUMENTO_NAO_CANCELAVEL', 'Só um documento autorizado pode ser cancelado.', { details: { status: 'REJECTED' } }));
});

test.serial('GET /v1/nfse lists newest first with a cursor; status and situacao together are 400; another partner gets 404', async (t) => {
  const page = await stack.request('GET', '/v1/nfse?limit=2&status=AUTHORIZED', { headers });
  t.is(page.status, 200);
  t.is(page.body.data.items.length, 2);
  t.truthy(page.body.data.nextCursor);
  const next = await stack.request('GET', `/v1/nfse?limit=2&status=AUTHORIZED&cursor=${page.body.data.nextCursor}`, { headers });
  t.false(next.body.data.items.some((i: any) => page.body.data.items.some((p: any) => p.id === i.id)));
  const both = await stack.request('GET', '/v1/nfse?status=ERROR&situacao=indeterminada', { headers });
  t.is(both.status, 400);
  const other = await integratorWithA1(stack, NFSE_ISSUER);
  const foreign = await stack.request('GET', `/v1/nfse/${page.body.data.items[0].id}`, { headers: other.headers });
  t.is(foreign.status, 404);
  t.deepEqual(foreign.body, envelope(foreign, 404, 'NOT_FOUND', 'NFS-e não encontrada.'));
});

test.serial('POST /v1/fiscal/resolve-servico resolves from the issuer activity with sources; without an item it is 422 with camposNaoResolvidos', async (t) => {
  const withActivity = await companyWithA1(stack, headers, { ...NFSE_ISSUER, servicoPadraoLc116: '1.01', codigoNbsPadrao: '115022000', tribIssqnPadrao: 4, fiscalBrainEnabled: true });
  const res = await stack.request('POST', '/v1/fiscal/resolve-servico', { headers, body: { issuerId: withActivity.issuerId, valor: 1500.5, dataEmissao: '2026-11-22' } });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, {
    lc116: { item: '01.01', fonte: 'cadastro' }, cTribNac: { codigo: '010101', candidatas: [] }, nbs: { codigo: '115022000', fonte: 'cadastro' },
    ibsCbs: { indOp: '100301', cClassTrib: '000001' }, camposNaoResolvidos: [], valor: '1500.50', dataEmissao: '2026-11-22', issuerId: withActivity.issuerId,
  });
  t.deepEqual(res.body.data.iss, {
    municipio: '3550308', tribISSQN: 4, tribISSQNFonte: 'cadastro', regime: 'simples_nacional', informativo: true,
    observacao: 'ISSQN não devido: não incidência (tribISSQN 4, tribIssqnPadrao do emissor).',
  });
  // Without tribIssqnPadrao ('' clears it) the answer says tribISSQN 1 is the default, not the issuer's.
  const unset = await stack.request('PATCH', `/v1/companies/${withActivity.issuerId}`, { headers, body: { tribIssqnPadrao: '' } });
  t.is(unset.status, 200, unset.text);
  const byDefault = await stack.request('POST', '/v1/fiscal/resolve-servico', { headers, body: { issuerId: withActivity.issuerId } });
  t.like(byDefault.body.data.iss, { tribISSQN: 1, tribISSQNFonte: 'padrao' });
  const withoutActivity = await companyWithA1(stack, headers, { ...NFSE_ISSUER, fiscalBrainEnabled: true });
  const none = await stack.request('POST', '/v1/fiscal/resolve-servico', { headers, body: { issuerId: withoutActivity.issuerId } });
  t.is(none.status, 422);
  t.deepEqual(none.body, envelope(none, 422, 'TRIBUTACAO_NAO_RESOLVIDA', 'Tributação assistida não resolveu todos os campos.', {
    details: { camposNaoResolvidos: [{ campo: 'lc116', motivo: 'informe lc116 ou cadastre servicoPadraoLc116 no emissor' }] },
  }));
});

test.serial('POST /v1/nfse: unknown fields and a malformed issuerId answer 400 VALIDATION_ERROR before the issuer is selected; nothing stored', async (t) => {
  const documents = async () => Number((await stack.knex('emission.nfse_documents').count('* as n'))[0]!.n);
  const before = await documents();
  const { issuerId: _omit, ...withoutIssuer } = aValidNfseBody();
  // Without issuerId (which NFS-e requires), the unknown field is reported with the missing issuerId at once.
  const unknown = await post({ ...withoutIssuer, campoInexistente: 1 });
  t.is(unknown.status, 400, unknown.text);
  t.deepEqual(unknown.body, envelope(unknown, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [
      { field: 'issuerId', message: "O campo 'issuerId' é obrigatório." },
      { field: 'campoInexistente', message: unknown.body.error.errors?.[1]?.message },
    ],
    details: { camposDesconhecidos: [{ campo: 'campoInexistente', caminho: 'campoInexistente', objeto: '' }] },
  }));
  t.regex(unknown.body.error.errors[1].message, /^Campo desconhecido 'campoInexistente'\. Campos aceitos: issuerId, /);
  t.is(unknown.body.error.instance, '/v1/nfse');
  // Without it and nothing else wrong, the selection's own 400.
  const missing = await post(withoutIssuer);
  t.deepEqual(missing.body, envelope(missing, 400, 'BAD_REQUEST', 'informe issuerId: NFS-e exige issuerId'));
  const malformed = await post(aValidNfseBody({ issuerId: 'abc' }));
  t.deepEqual(malformed.body, envelope(malformed, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{ field: 'issuerId', message: "O campo 'issuerId' deve ser um UUID." }],
  }));
  t.is(malformed.status, 400);
  t.is(await documents(), before);
});

test.serial('POST /v1/nfse: a JSON "__proto__" key is one more unknown key, and no prototype takes it', async (t) => {
  const documents = async () => Number((await stack.knex('emission.nfse_documents').count('* as n'))[0]!.n);
  const before = await documents();
  const proto = await post(JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(aValidNfseBody({ issuerId })).slice(1)}`));
  t.deepEqual(proto.body, envelope(proto, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{ field: '__proto__', message: proto.body.error.errors?.[0]?.message }],
    details: { camposDesconhecidos: [{ campo: '__proto__', caminho: '__proto__', objeto: '' }] },
  }));
  t.regex(proto.body.error.errors[0].message, /^Campo desconhecido '__proto__'\. Campos aceitos: issuerId, /);
  t.is(({} as any).polluted, undefined);
  t.is(await documents(), before);
});

test.serial('POST /v1/fiscal/resolve-servico: issuerId is any UUID of versions 1-8, nil or max (404 when nobody has it), anything else 400; the OpenAPI pattern says so', async (t) => {
  const resolve = (body: unknown) => stack.request('POST', '/v1/fiscal/resolve-servico', { headers, body });
  for (const id of ['ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '00000000-0000-0000-0000-000000000000', '01890a5d-ac96-874b-bcce-b302099a8057']) {
    const res = await resolve({ issuerId: id });
    t.is(res.status, 404, id);
    t.deepEqual(res.body, envelope(res, 404, 'NOT_FOUND', 'Emissor não encontrado.'), id);
    t.is(res.body.error.instance, '/v1/fiscal/resolve-servico');
  }
  // Not a UUID, one hex digit off the max UUID, version 9, version 4 without the RFC variant.
  for (const id of ['abc', 'ffffffff-ffff-ffff-ffff-fffffffffff0', '01890a5d-ac96-974b-bcce-b302099a8057', '01890a5d-ac96-474b-ccce-b302099a8057']) {
    const res = await resolve({ issuerId: id });
    t.is(res.status, 400, id);
    t.deepEqual(res.body, envelope(res, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', { errors: [{ field: 'issuerId', message: "O campo 'issuerId' deve ser um UUID." }] }), id);
    t.is(res.body.error.instance, '/v1/fiscal/resolve-servico');
  }
  const proto = await resolve(JSON.parse(`{"__proto__":{"polluted":1},"issuerId":"${issuerId}"}`));
  t.deepEqual(proto.body, envelope(proto, 400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', {
    errors: [{ field: '__proto__', message: proto.body.error.errors?.[0]?.message }],
    details: { camposDesconhecidos: [{ campo: '__proto__', caminho: '__proto__', objeto: '' }] },
  }));
  t.regex(proto.body.error.errors[0].message, /^Campo desconhecido '__proto__'\. Campos aceitos: issuerId, lc116, municipio, valor, dataEmissao\.$/);
  t.is(({} as any).polluted, undefined);

  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const schema = (doc.paths ?? doc.data?.paths)['/v1/fiscal/resolve-servico'].post.requestBody.content['application/json'].schema.properties.issuerId;
  t.like(schema, { type: 'string', format: 'uuid' });
  const pattern = new RegExp(schema.pattern);
  t.true(['ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-0000-0000-000000000000', issuerId].every((id) => pattern.test(id)));
  t.false(['abc', '01890a5d-ac96-974b-bcce-b302099a8057'].some((id) => pattern.test(id)));
});

test.serial('POST /v1/fiscal/resolve-servico is assisted taxation: an issuer without fiscalBrainEnabled answers 403, even on a plan with fiscalBrain', async (t) => {
  const res = await stack.request('POST', '/v1/fiscal/resolve-servico', { headers, body: { issuerId } });
  assertEnvelope(t, res, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', 'Tributação assistida (resolverTributacao) exige plano com fiscalBrain e o emissor com fiscalBrainEnabled.', { plano: 'SCALE', planoIncluiFiscalBrain: true, fiscalBrainEnabled: false }, '/v1/fiscal/resolve-servico');
});

test.serial('POST /v1/fiscal/resolve-servico is assisted taxation: a plan without fiscalBrain answers 403', async (t) => {
  const starter = await createPartnerWithKey(stack, { plan: 'STARTER' });
  const starterHeaders = { 'x-api-key': starter.apiKey };
  const { issuerId: starterIssuer } = await companyWithA1(stack, starterHeaders, { ...NFSE_ISSUER, servicoPadraoLc116: '1.01' });
  const res = await stack.request('POST', '/v1/fiscal/resolve-servico', { headers: starterHeaders, body: { issuerId: starterIssuer } });
  assertEnvelope(t, res, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', 'Tributação assistida (resolverTributacao) exige plano com fiscalBrain e o emissor com fiscalBrainEnabled.', { plano: 'STARTER', planoIncluiFiscalBrain: false }, '/v1/fiscal/resolve-servico');
});

test.serial('rule 10 with the annexes: resolverTributacao fills cTribNac from the issuer activity (Anexo B) and emits', async (t) => {
  const assisted = await companyWithA1(stack, headers, { ...NFSE_ISSUER, servicoPadraoLc116: '1.02', tribIssqnPadrao: 1, fiscalBrainEnabled: true });
  const body = aValidNfseBody({ issuerId: assisted.issuerId, resolverTributacao: true, dpsNacional: { pTotTribSN: 6 }, servico: { valorServicos: 100, discriminacao: 'Programacao' } });
  const res = await post(body);
  t.is(res.status, 201, res.text);
  const dps = sefin.calls.filter((c) => c.action === 'nfseSubmit').at(-1)!.params.signedDpsXml as string;
  t.regex(dps, /<cTribNac>010201<\/cTribNac>/);
});

test.serial('the OpenAPI document describes every NFS-e route with request and response schemas and examples', async (t) => {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const paths = doc.paths ?? doc.data?.paths;
  const emit = paths['/v1/nfse'].post;
  t.is(emit.requestBody.content['application/json'].schema.properties.servico.type, 'object');
  t.is(emit.requestBody.content['application/json'].example.servico.valorServicos, 1500);
  t.deepEqual(Object.keys(emit.responses['201'].content['application/json'].schema.properties.data.properties).slice(0, 5), ['id', 'status', 'model', 'chaveAcesso', 'numero']);
  t.is(emit.responses['201'].content['application/json'].example.data.model, 'NFSe');
  const resolve = paths['/v1/fiscal/resolve-servico'].post;
  t.deepEqual(resolve.requestBody.content['application/json'].schema.required, ['issuerId']);
  t.truthy(resolve.responses['200'].content['application/json'].example.data.cTribNac);
  const cancel = paths['/v1/nfse/{id}/cancelamento'].post;
  t.truthy(cancel.requestBody.content['application/json'].schema.properties.justificativa);
  t.truthy(cancel.responses['200'].content['application/json'].example);
  for (const [path, method] of [['/v1/nfse', 'get'], ['/v1/nfse/{id}', 'get'], ['/v1/nfse/{id}/xml', 'get'], ['/v1/nfse/{id}/danfse.pdf', 'get'], ['/v1/nfse/{id}/danfse.html', 'get'], ['/v1/nfse/{id}/cancelamento/xml', 'get']] as const) {
    t.truthy(paths[path]?.[method], `${method} ${path}`);
  }
  t.truthy(paths['/v1/nfse/{id}'].get.responses['200'].content['application/json'].example);
});

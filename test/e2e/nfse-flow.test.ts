import test from 'ava';
import { STATUS_CODES } from 'node:http';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfseBody, NFSE_ISSUER } from '../support/nfse-factories.js';
import { companyWithA1, integratorWithA1, subscribedReceiver } from '../support/e2e.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyNfseDocument } from '../support/verify-nfse.js';
import { ManualClock } from '../../services/shared/clock.js';

/**
 * NFS-e end to end with every service real and the embedded Sefin Nacional simulator (mTLS,
 * gzip+base64 JSON, official XSDs, its own signature on the NFS-e): the happy path with the NFS-e
 * checked by xmllint + xmlsec1, Sefin's rejections verbatim (E0008; E0037 at submission), the adherence
 * refusal before numbering, an answer lost after processing settled by reconciliation with exactly
 * one webhook, cancellation, and the DANFSe.
 */
let stack: Stack;
let receiver: Receiver;
let headers: Record<string, string>;
let issuerId: string;
const clock = new ManualClock(new Date());

test.before(async () => {
  stack = await startStack({ clock, env: { WEBHOOK_POLL_MS: '200', SIMULATOR_SEFIN_NAO_ADERENTES: '3304557' } });
  ({ headers, issuerId } = await integratorWithA1(stack, NFSE_ISSUER));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

const simulator = () => (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator as { adminUrl: string };
async function fault(spec: Record<string, unknown>) {
  await fetch(simulator().adminUrl + '/__admin/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
}
const hooksFor = (type: string, nfseId: string) => receiver.hits.filter((h) => h.body.type === type && h.body.data?.nfseId === nfseId);

test.serial('authorized by the simulator: 201, the NFS-e XML passes the official XSD and both signatures, invoice.authorized arrives signed', async (t) => {
  const res = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'AUTHORIZED', model: 'NFSe', serie: 1, nDPS: 1, amount: '1500.00' });
  t.regex(d.chaveAcesso, /^\d{50}$/);
  t.regex(d.numero, /^\d{1,15}$/);
  const xml = await stack.request('GET', `/v1/nfse/${d.id}/xml`, { headers });
  t.is(xml.status, 200);
  const check = verifyNfseDocument(xml.text);
  t.true(check.ok, check.output);
  // verifyNfseDocument checks Sefin's signature on infNFSe and ours on the embedded infDPS.
  t.true(xml.text.includes(`<infDPS Id="${d.idDps}">`));
  const hook = await waitFor(async () => hooksFor('invoice.authorized', d.id)[0], 'invoice.authorized');
  t.true(hook.verified);
  t.like(hook.body.data, { nfseId: d.id, model: 'NFSe', status: 'AUTHORIZED', chaveAcesso: d.chaveAcesso, number: 1, series: 1, amount: '1500.00' });
});

test.serial('a municipality Sefin reports as not adhering: 422 before numbering with its message; nothing transmitted', async (t) => {
  const rj = await companyWithA1(stack, headers, { ...NFSE_ISSUER, endereco: { logradouro: 'Rua A', numero: '1', bairro: 'Centro', codigoMunicipio: '3304557', uf: 'RJ', cep: '20010000' } });
  const res = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId: rj.issuerId }) });
  t.is(res.status, 422, res.text);
  const mensagemSefin = res.body.error.details.mensagemSefin;
  t.true(typeof mensagemSefin === 'string' && mensagemSefin.length > 0);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', title: STATUS_CODES[422], status: 422,
      detail: 'Município não aderente ao padrão nacional neste ambiente.', details: { codigoMunicipio: '3304557', mensagemSefin },
      instance: '/v1/nfse', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is(Number((await stack.knex('emission.nfse_documents').where({ issuer_id: rj.issuerId }).count('* as n'))[0]!.n), 0);
  const row = await stack.knex('emission.nfse_municipalities').where({ codigo_municipio: '3304557', environment: 2 }).first();
  t.is(row.adesao, 'nao_aderente');
});

/** Sefin's erros[] entry as the official rule table words it (rtc_anexo_vi … rn_dps_nfse.csv). */
const E0008 = 'A data e hora de emissão da DPS deve ser anterior ou igual à data do seu processamento (dhProc) pelo Sistema Nacional NFS-e.';
const E0037 = 'O código do município emissor informado na DPS é inexistente no cadastro de convênio municipal do sistema nacional.';
const numberedFor = async (id: string) => Number((await stack.knex('emission.nfse_documents').where({ issuer_id: id }).count('* as n'))[0]!.n);
function badRequest(res: { headers: Headers; body: any }, detail: string, erros: unknown, details: Record<string, unknown>) {
  return {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: STATUS_CODES[400], status: 400, detail, erros, details,
      instance: '/v1/nfse', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  };
}

test.serial('a Sefin rejection answers 400 BAD_REQUEST with erros[] verbatim: E0008 when Sefin\'s clock is behind the DPS dhEmi', async (t) => {
  const emission: any = stack.nodes[0]!.getLocalService({ name: 'emission', version: 1 });
  // A new DPS is numbered with the DPS of its série that waited with it (nfse.createNumberedGroup).
  const createNumberedGroup = emission.nfse.createNumberedGroup;
  const at = clock.now();
  // Numbered and committed TRANSMITTING, then Sefin (sharing this clock) processes it a minute "before" dhEmi.
  emission.nfse.createNumberedGroup = async (...args: unknown[]) => {
    const settled = await createNumberedGroup.apply(emission.nfse, args);
    clock.set(new Date(at.getTime() - 60_000));
    return settled;
  };
  t.teardown(() => { emission.nfse.createNumberedGroup = createNumberedGroup; clock.set(at); });
  const res = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  emission.nfse.createNumberedGroup = createNumberedGroup;
  clock.set(at);
  t.is(res.status, 400, res.text);
  const { nfseId, idDps } = res.body.error.details;
  t.deepEqual(res.body, badRequest(res, `E0008 - ${E0008}`, [{ codigo: 'E0008', descricao: E0008 }], { nfseId, status: 'REJECTED', idDps }));
  const got = await stack.request('GET', `/v1/nfse/${nfseId}`, { headers });
  t.like(got.body.data, { status: 'REJECTED', erros: [{ codigo: 'E0008', descricao: E0008 }], chaveAcesso: null });
  const hook = await waitFor(async () => hooksFor('invoice.rejected', nfseId)[0], 'invoice.rejected');
  t.like(hook.body.data, { nfseId, model: 'NFSe', status: 'REJECTED', erros: [{ codigo: 'E0008', descricao: E0008 }] });
});

test.serial('E0037 at submission for a municipality the convênio check had found aderente: 400 with details.mensagemSefin, recorded nao_aderente, the next DPS 422 with no number used', async (t) => {
  const bh = await companyWithA1(stack, headers, { ...NFSE_ISSUER, endereco: { logradouro: 'Av Afonso Pena', numero: '1000', bairro: 'Centro', codigoMunicipio: '3106200', uf: 'MG', cep: '30130005' } });
  const first = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId: bh.issuerId }) });
  t.is(first.status, 201, first.text);
  t.like(await stack.knex('emission.nfse_municipalities').where({ codigo_municipio: '3106200', environment: 2 }).first(), { adesao: 'aderente', mensagem: null });

  // The municipality leaves the national standard; what we recorded still says aderente, so only Sefin's E0037 tells.
  const sim = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  sim.sefinNonAdherent.add('3106200');
  t.teardown(() => sim.sefinNonAdherent.delete('3106200'));
  const rejected = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId: bh.issuerId }) });
  t.is(rejected.status, 400, rejected.text);
  const { nfseId, idDps } = rejected.body.error.details;
  t.deepEqual(rejected.body, badRequest(rejected, `E0037 - ${E0037}`, [{ codigo: 'E0037', descricao: E0037 }], {
    nfseId, status: 'REJECTED', idDps, mensagemSefin: E0037, codigoMunicipio: '3106200',
  }));
  t.like(await stack.knex('emission.nfse_municipalities').where({ codigo_municipio: '3106200', environment: 2 }).first(), { adesao: 'nao_aderente', mensagem: E0037 });
  t.is(await numberedFor(bh.issuerId), 2);

  const next = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId: bh.issuerId }) });
  t.is(next.status, 422, next.text);
  t.deepEqual(next.body, {
    error: {
      type: 'https://errors.test/MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', title: STATUS_CODES[422], status: 422,
      detail: 'Município não aderente ao padrão nacional neste ambiente.', details: { codigoMunicipio: '3106200', mensagemSefin: E0037 },
      instance: '/v1/nfse', requestId: next.headers.get('x-request-id'), timestamp: next.body.error.timestamp,
    },
  });
  t.is(await numberedFor(bh.issuerId), 2, 'the refused DPS used no number');
  const seq = await stack.knex('emission.nfse_sequences').where({ issuer_id: bh.issuerId }).first();
  t.is(Number(seq.next_number), 3);
});

test.serial('answer dropped after processing: 201 TRANSMITTING, reconciliation by idDps ends AUTHORIZED, exactly one webhook', async (t) => {
  await fault({ mode: 'drop-after-processing', service: 'SefinNfse', times: 1 });
  const res = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'TRANSMITTING');
  const id = res.body.data.id;
  clock.advance(3 * 60_000);
  const round = await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {}) as any;
  t.deepEqual(round.outcomes, [{ id, status: 'AUTHORIZED' }]);
  const hook = await waitFor(async () => hooksFor('invoice.authorized', id)[0], 'invoice.authorized after reconciliation');
  // The attempt's result recorded before the clock jumps: a jump past an attempt's lease while it is
  // still in flight sends it again (at least once, the same event id), which is not what this checks.
  await waitFor(async () => stack.knex('webhooks.deliveries').where({ event_id: hook.body.id, status: 'delivered' }).first(), 'the delivery recorded');
  clock.advance(10 * 60_000);
  await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {});
  await new Promise((r) => setTimeout(r, 600));
  t.is(hooksFor('invoice.authorized', id).length, 1);
  const got = await stack.request('GET', `/v1/nfse/${id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', situacao: null });
  t.regex(got.body.data.chaveAcesso, /^\d{50}$/);
});

test.serial('cancellation registered by the simulator: CANCELADA, the event XML passes its XSD and signatures, invoice.canceled arrives', async (t) => {
  const doc = (await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) })).body.data;
  const res = await stack.request('POST', `/v1/nfse/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Servico nao prestado por desistencia do tomador', codigoMotivo: 2 } });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, { status: 'REGISTERED', codigoMotivo: 2, documento: { id: doc.id, status: 'CANCELADA' } });
  const ev = await stack.request('GET', `/v1/nfse/${doc.id}/cancelamento/xml`, { headers });
  t.is(ev.status, 200);
  const check = verifyNfseDocument(ev.text, 'evento');
  t.true(check.ok, check.output);
  const hook = await waitFor(async () => hooksFor('invoice.canceled', doc.id)[0], 'invoice.canceled');
  t.like(hook.body.data, { nfseId: doc.id, model: 'NFSe', status: 'CANCELADA' });
});

test.serial('DANFSe of an NFS-e the simulator authorized: PDF attachment and escaped HTML', async (t) => {
  const doc = (await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) })).body.data;
  const pdf = await fetch(`${stack.url}${doc.links.danfse}`, { headers });
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(pdf.headers.get('content-disposition'), `attachment; filename="${doc.chaveAcesso}-danfse.pdf"`);
  const bytes = Buffer.from(await pdf.arrayBuffer());
  t.is(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const html = await stack.request('GET', doc.links.danfseHtml, { headers });
  t.is(html.status, 200);
  t.true(html.text.includes('DANFSe v1.0') && html.text.includes(doc.chaveAcesso) && html.text.includes('<div class="hom">NFS-e SEM VALIDADE JURÍDICA</div>'));

});

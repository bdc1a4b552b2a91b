import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody } from '../support/nfe-factories.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';

/**
 * NFC-e offline contingency over HTTP with every service real and the authority simulator: the
 * note is signed in contingency (tpEmis 9, offline QR code) without being sent, its stored XML
 * passes the independent checker, and the contingency scheduler then has it authorized.
 */
let stack: Stack;
let receiver: Receiver;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '200' } });
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

test.serial('contingencia: true → CONTINGENCIA_PENDENTE with the offline QR code; the stored XML passes verify-dfe; then transmitted and AUTHORIZED', async (t) => {
  const res = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody({ contingencia: true, justificativaContingencia: 'Sem conexao com a internet na loja' }) });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'CONTINGENCIA_PENDENTE', protocol: null, model: '65', number: 1, contingencia: { motivo: 'solicitada', justificativa: 'Sem conexao com a internet na loja' } });
  t.regex(d.accessKey, /^35\d{18}650010000000019\d{9}$/); // tpEmis 9 in the key
  // Offline QR code (manual v2): chave|2|tpAmb|dia de dhEmi|vNF|hex(digVal)|idCSC|hash.
  t.regex(d.qrCode, new RegExp(`\\?p=${d.accessKey}\\|2\\|2\\|\\d{2}\\|\\d+\\.\\d{2}\\|[0-9a-f]{56}\\|1\\|[0-9A-F]{40}$`, 'i'));
  // Entry (dhEmi = dhCont) + 24 h; createdAt is written a moment after the build.
  const margin = new Date(d.createdAt).getTime() + 24 * 3_600_000 - new Date(d.contingencia.prazo).getTime();
  t.true(margin >= 0 && margin < 10_000, String(margin));

  const row = await stack.knex('emission.documents').where({ id: d.id }).first('transmitted_xml', 'status');
  t.true(row.transmitted_xml.includes('<tpEmis>9</tpEmis>'));
  t.regex(row.transmitted_xml, /<dhCont>[^<]+<\/dhCont><xJust>Sem conexao com a internet na loja<\/xJust>/);
  const independent = verifyDfe({ nfce: row.transmitted_xml });
  t.true(independent.ok, independent.output);
  const pending = await waitFor(async () => receiver.hits.find((h) => h.body?.data?.invoiceId === d.id), 'invoice.contingency webhook');
  t.is(pending.headers['x-webhook-event'], 'invoice.contingency');
  t.true(pending.verified);

  const round: any = await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  t.deepEqual(round.outcomes.filter((o: any) => o.id === d.id), [{ id: d.id, status: 'AUTHORIZED' }]);
  const got = await stack.request('GET', `/v1/nfce/${d.id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', accessKey: d.accessKey, contingencia: d.contingencia });
  t.regex(got.body.data.protocol, /^\d{15}$/);
  const xml = await stack.request('GET', `/v1/nfce/${d.id}/xml`, { headers });
  t.true(verifyDfe({ nfeProc: xml.text }).ok);
  const hook = await waitFor(async () => receiver.hits.find((h) => h.body?.data?.invoiceId === d.id && h.body.type === 'invoice.authorized'), 'invoice.authorized webhook');
  t.like(hook.body.data, { status: 'AUTHORIZED', accessKey: d.accessKey, emitidaEmContingencia: true });
});

import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody } from '../support/nfe-factories.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';
import { ManualClock } from '../../services/shared/clock.js';
import { AUTHORITY_PROCESSING_WINDOW_MS } from '../../lib/emission/contingency.js';

/**
 * Issue 20, defect 4, with every service real and the authority simulator: the authority answers
 * an NFC-e later than the client's read timeout (fault `slow`, once) and commits its first key K1
 * after the client gave up. The note must end AUTHORIZED under K1 with one webhook, and the partner
 * is never told REJECTED. Timeouts are small (read 4 s, authority 10 s) so this runs in seconds; a
 * manual clock (starting now, so the sandbox A1 is valid) moves past the processing window.
 */
const READ_TIMEOUT_MS = 4_000;
const AUTHORITY_DELAY_MS = 10_000;
const clock = new ManualClock(new Date().toISOString());
let stack: Stack;
let simulator: SefazSimulator;
let receiver: Receiver;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({ clock, env: { WEBHOOK_POLL_MS: '200', SEFAZ_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS) } });
  simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** One NFC-e sent while the authority takes longer than the read timeout: 503 with K1, the re-key held. */
async function lateNote(t: any) {
  simulator.faults.add({ mode: 'slow', service: 'NFeAutorizacao4', delayMs: AUTHORITY_DELAY_MS, times: 1 });
  const res = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(res.status, 503, res.text);
  const { invoiceId, accessKey: k1, status } = res.body.error.details;
  t.like(res.body.error, { type: 'https://errors.test/CONTINGENCIA_SITUACAO_INDETERMINADA', status: 503, detail: 'Situação da nota indeterminada; o resultado chegará por webhook.' });
  t.is(status, 'TRANSMITTING');
  t.is(k1[34], '1', 'still the normal key: no receipt under another key');
  return { id: invoiceId as string, k1: k1 as string };
}

const committed = (key: string) => waitFor(() => stack.knex('simulator.notes').where({ access_key: key }).first(), `the authority committing ${key}`, AUTHORITY_DELAY_MS + 10_000);
const hooksOf = (id: string) => receiver.hits.filter((h) => h.body?.data?.invoiceId === id);

async function settledOutbox(id: string): Promise<string[]> {
  await waitFor(async () => Number((await stack.knex('emission.outbox').whereNull('published_at').count<{ n: string }[]>('* as n'))[0]!.n) === 0, 'outbox handed over');
  const rows = await stack.knex('emission.outbox').orderBy('created_at');
  return rows.map((r: any) => r.payload).filter((p: any) => p.data.invoiceId === id).map((p: any) => p.type);
}

test.serial('slow authority, once: the first key committed after the read timeout → AUTHORIZED with K1 after the window, one webhook, never REJECTED', async (t) => {
  const { id, k1 } = await lateNote(t);
  t.is((await stack.knex('emission.documents').where({ id }).first()).access_key, k1);
  const atAuthority = await committed(k1);

  clock.advance(AUTHORITY_PROCESSING_WINDOW_MS);
  const round: any = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  t.deepEqual(round.outcomes.filter((o: any) => o.id === id), [{ id, status: 'AUTHORIZED' }]);
  const got = await stack.request('GET', `/v1/nfce/${id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', accessKey: k1, protocol: atAuthority.protocol });
  t.is(got.body.data.contingencia, undefined);
  const xml = await stack.request('GET', `/v1/nfce/${id}/xml`, { headers });
  t.true(verifyDfe({ nfeProc: xml.text }).ok, 'nfeProc of K1 passes the independent checker');

  const hook = await waitFor(async () => hooksOf(id).find((h) => h.body.type === 'invoice.authorized'), 'invoice.authorized webhook');
  t.like(hook.body.data, { status: 'AUTHORIZED', accessKey: k1 });
  t.true(hook.verified);
  t.deepEqual(await settledOutbox(id), ['invoice.authorized']);
  t.deepEqual(hooksOf(id).map((h) => h.body.type), ['invoice.authorized'], 'one webhook');
});

test.serial('slow authority past the window: re-keyed to contingency (K2), then the 539 naming K1 adopts K1 → AUTHORIZED with its protocol, never REJECTED', async (t) => {
  const { id, k1 } = await lateNote(t);
  // The window ends (manual clock) while the authority is still processing K1: the consult finds nothing.
  clock.advance(AUTHORITY_PROCESSING_WINDOW_MS);
  const round: any = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  t.deepEqual(round.outcomes.filter((o: any) => o.id === id), [{ id, status: 'CONTINGENCIA_PENDENTE' }]);
  const k2 = (await stack.knex('emission.documents').where({ id }).first()).access_key as string;
  t.is(k2[34], '9');
  t.is(k2.slice(0, 34), k1.slice(0, 34), 'same number');
  const atAuthority = await committed(k1);

  // The scheduler sends K2; the authority answers 539 naming K1, which the note held.
  clock.advance(60_000);
  const sent: any = await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  t.deepEqual(sent.outcomes.filter((o: any) => o.id === id), [{ id, status: 'AUTHORIZED' }]);
  const got = await stack.request('GET', `/v1/nfce/${id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', accessKey: k1, protocol: atAuthority.protocol });
  const xml = await stack.request('GET', `/v1/nfce/${id}/xml`, { headers });
  t.true(xml.text.includes(`Id="NFe${k1}"`));
  t.true(verifyDfe({ nfeProc: xml.text }).ok, 'nfeProc of K1 passes the independent checker');
  const history = await stack.knex('emission.document_history').where({ document_id: id }).orderBy('id').pluck('to_status');
  t.false(history.includes('REJECTED'));

  await waitFor(async () => hooksOf(id).some((h) => h.body.type === 'invoice.authorized'), 'invoice.authorized webhook');
  t.deepEqual(await settledOutbox(id), ['invoice.contingency', 'invoice.authorized']);
  const hooks = hooksOf(id);
  t.deepEqual(hooks.map((h) => [h.body.type, h.body.data.accessKey]), [['invoice.contingency', k2], ['invoice.authorized', k1]]);
});

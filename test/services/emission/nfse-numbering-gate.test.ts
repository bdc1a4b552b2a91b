import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { aValidNfseBody, NFSE_ISSUER } from '../../support/nfse-factories.js';
import { aSimplesItem, aValidNfeBody } from '../../support/nfe-factories.js';
import { waitFor } from '../../support/webhooks.js';
import { assertOverloaded } from '../../support/overloaded.js';
import { ManualClock } from '../../../services/shared/clock.js';

/**
 * Issue 20, defect 2, for NFS-e (the NF-e case: numbering-gate.test.ts): a DPS takes one of its
 * issuer's numbering slots (here: one in flight, none waiting), the same lane as the issuer's NF-e,
 * so an issuer's burst never holds the database connections another tenant needs, and a request
 * beyond the bound is refused before numbering (503 EMISSOR_SOBRECARREGADO, no nDPS used). The test
 * holds the série's sequence row lock itself.
 */
// Today, not a fixed date: the issuer's A1 is a real certificate valid from a day before it was
// made, so a clock fixed in the past refused it (CERTIFICADO_AINDA_NAO_VALIDO) once that day went by.
const clock = new ManualClock(new Date());
let stack: Stack;

test.before(async () => {
  stack = await startStack({ clock, env: { EMISSION_NUMBERING_PER_ISSUER: '1', EMISSION_NUMBERING_MAX_QUEUED: '0' } });
});
test.after.always(async () => { await stack?.stop(); });

test.serial("beyond the issuer's numbering bound: a DPS (and the issuer's NF-e) 503 EMISSOR_SOBRECARREGADO before numbering, while another issuer is served at once", async (t) => {
  const busy = await integratorWithA1(stack, NFSE_ISSUER);
  const other = await integratorWithA1(stack, NFSE_ISSUER);
  const emit = (who: typeof busy) => stack.request('POST', '/v1/nfse', { headers: who.headers, body: aValidNfseBody({ issuerId: who.issuerId }) });
  const firstDps = await emit(busy); // the série's first DPS creates its sequence row
  t.is(firstDps.status, 201, firstDps.text);

  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => { locked = r; });
  const space = { issuer_id: busy.issuerId, serie: 1, environment: 2 };
  const lock = stack.knex.transaction(async (trx) => {
    await trx('emission.nfse_sequences').where(space).forUpdate().first();
    locked();
    await held;
  });
  await isLocked;
  const first = emit(busy);
  // The first request holds the issuer's only slot, waiting on the sequence lock.
  await waitFor(async () => Number((await stack.knex.raw('select count(*) as n from pg_locks where not granted')).rows[0].n) > 0, 'the first request to wait on the sequence lock');

  assertOverloaded(t, await emit(busy), clock, '/v1/nfse', busy.issuerId);
  // The issuer's NF-e wait for the same slots.
  const item = aSimplesItem();
  const nfe = await stack.request('POST', '/v1/nfe', { headers: busy.headers, body: aValidNfeBody({ items: [item], pagamentos: [{ forma: '01', valor: 100 }] }) });
  assertOverloaded(t, nfe, clock, '/v1/nfe', busy.issuerId);

  const served = await emit(other);
  t.is(served.status, 201, served.text);
  t.like(served.body.data, { status: 'AUTHORIZED', nDPS: 1, issuerId: other.issuerId });

  release();
  await lock;
  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { status: 'AUTHORIZED', nDPS: 2, issuerId: busy.issuerId });
  const seq = await stack.knex('emission.nfse_sequences').where(space).first('next_number');
  t.is(Number(seq.next_number), 3, 'the refused DPS used no nDPS');
  t.is(Number((await stack.knex('emission.nfse_documents').where({ issuer_id: busy.issuerId }).count('* as n'))[0]!.n), 2);
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: busy.issuerId }).count('* as n'))[0]!.n), 0, 'the refused NF-e used no number');
});

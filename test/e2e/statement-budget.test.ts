import test from 'ava';
import { startStack } from '../support/stack.js';
import { createPartnerWithKey } from '../support/identity.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { emissionStatements, listed } from '../support/statement-count.js';

/**
 * Issue 18 counts SQL statements per note: each costs ~0.2-0.3 ms of CPU. This guards the count
 * of the emission service's own statements for one authorized 1-item NF-e (the outbox relay's
 * polling excluded: it runs on its own timer). Lower is welcome; higher fails with the list.
 * 2 statements, two round trips, once the node foresees the series' next number (after its first
 * group: services/emission/number-forecast.ts): the claim of that number (migration 076's
 * claim_forecast) with the insert TRANSMITTING, its history and first-document flag, in ONE
 * statement committed by itself (services/emission/group-claim.ts claimForecast); then the
 * outcome as one statement of its own (the update guarded by the attempt, with history, billing
 * counter and outbox row). Before the forecast, or when it misses, 3: the claim sent with its
 * BEGIN (services/shared/direct-transaction.ts), the insert with its COMMIT
 * (services/shared/statement-then-commit.ts), the outcome.
 */
const EMISSION_STATEMENTS_PER_NOTE = 2;

test('an authorized NF-e costs the emission service at most its budget of SQL statements', async (t) => {
  const stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  t.teardown(() => stack.stop());
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const headers = { 'x-api-key': partner.apiKey };
  const { issuerId } = await companyWithA1(stack, headers);
  const emit = () => stack.request('POST', '/v1/nfe', { headers, body: { issuerId, ...aValidNfeBody() } });
  t.is((await emit()).status, 201); // first note of the series creates its sequence row
  const second = await emissionStatements(stack.knex, emit); // the series' first group: not foreseen yet
  t.is(second.result.body.data?.status, 'AUTHORIZED', second.result.text);
  t.is(second.statements.length, 3, listed(second.statements));
  t.regex(second.statements[0]!, /^begin; update "emission"\."number_sequences"/, 'BEGIN travels with the claim');
  t.regex(second.statements[1]!, /^with created as \(insert into "emission"\."documents"[\s\S]*; commit$/, 'COMMIT travels with the insert');
  const { result: res, statements: seen } = await emissionStatements(stack.knex, emit);
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'AUTHORIZED', number: 3 });
  t.true(seen.length <= EMISSION_STATEMENTS_PER_NOTE, listed(seen));
  t.is(seen.length, 2, listed(seen)); // the listener sees them all: the foreseen claim with the insert, the outcome
  t.regex(seen[0]!, /^with claim as \(select "emission"\."claim_forecast"\([\s\S]*insert into "emission"\."documents"/, 'the claim rides in the insert');
  t.regex(seen[1]!, /"emission"\."documents"/, 'the outcome');
});

/**
 * The whole stack's statements for a note after the first of its issuer (issue 18): the issuer's
 * row and the partner's webhook config come from each node's cache (services/shared/cluster-cache.ts),
 * so what is left, once the series' next number is foreseen, is the emission's 2 (the claim in the
 * insert), the simulator's one call and the relay's published mark: 4 (8 before those caches, 6
 * before the COMMIT rode along, 5 before the claim did). The relays' polls of every outbox (timers)
 * and the authentication (its own cache, whose lease a node holds off for after it starts) are
 * left out.
 */
const NOTE_STATEMENTS = 4;
const outboxPolls = /"\w+"\."outbox" (where "channel"|set "(claimed_until|published_at)")|from "\w+"\."outbox" where "channel"/;

test('a note after the first of its issuer reads neither the issuer row nor the webhook config: the whole stack sends its budget', async (t) => {
  // A lease longer than the test's notes take on a loaded machine.
  const stack = await startStack({ env: { WEBHOOK_POLL_MS: '0', CACHE_LEASE_MS: '10000' } });
  t.teardown(() => stack.stop());
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const headers = { 'x-api-key': partner.apiKey };
  const { issuerId } = await companyWithA1(stack, headers);
  const emit = () => stack.request('POST', '/v1/nfe', { headers, body: { issuerId, ...aValidNfeBody() } });
  t.is((await emit()).status, 201); // creates the series, fills the caches
  t.is((await emit()).status, 201); // the series' first group: the node foresees its next number from here on
  for (let i = 0; ; i++) { // their outcome events relayed, so nothing of them is counted below
    if (!(await stack.knex('emission.outbox').whereNull('published_at').first())) break;
    if (i > 200) throw new Error('the first note\'s event was never relayed');
    await new Promise((r) => setTimeout(r, 50));
  }
  const seen: string[] = [];
  let relayed!: () => void;
  const published = new Promise<void>((resolve) => { relayed = resolve; });
  const listener = (q: { sql: string }) => {
    // The caller's authentication is auth's own per-node cache (services/auth/authentication-cache.ts), not this test's subject.
    if (outboxPolls.test(q.sql) || /^select "k"\."secret_hash"/.test(q.sql)) return;
    seen.push(q.sql);
    if (/^update "emission"\."outbox" set published_at/.test(q.sql)) relayed();
  };
  stack.knex.on('query', listener);
  const res = await emit();
  await Promise.race([published, new Promise((r) => setTimeout(r, 10_000))]);
  stack.knex.off('query', listener);
  t.log(listed(seen));
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');
  t.false(seen.some((s) => s.includes('"issuer"."issuers"')), listed(seen));
  t.false(seen.some((s) => s.includes('"webhooks"."configs"')), listed(seen));
  t.true(seen.some((s) => /^update "emission"\."outbox" set published_at/.test(s)), `the relay handed the event over: ${listed(seen)}`);
  t.true(seen.length <= NOTE_STATEMENTS, listed(seen));
});

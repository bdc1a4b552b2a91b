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
 * 3 statements, one transaction: claim (lock + advance, sent with its BEGIN in one message:
 * services/shared/direct-transaction.ts) and the insert (only if the number is free) TRANSMITTING
 * with history and first-document flag, committed together; then the outcome as one statement of
 * its own (the update guarded by the attempt, with history, billing counter and outbox row). Four
 * round trips with the COMMIT.
 */
const EMISSION_STATEMENTS_PER_NOTE = 3;

test('an authorized NF-e costs the emission service at most its budget of SQL statements', async (t) => {
  const stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  t.teardown(() => stack.stop());
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const headers = { 'x-api-key': partner.apiKey };
  const { issuerId } = await companyWithA1(stack, headers);
  const emit = () => stack.request('POST', '/v1/nfe', { headers, body: { issuerId, ...aValidNfeBody() } });
  t.is((await emit()).status, 201); // first note of the series creates its sequence row
  const { result: res, statements: seen } = await emissionStatements(stack.knex, emit);
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');
  t.true(seen.length <= EMISSION_STATEMENTS_PER_NOTE, listed(seen));
  t.true(seen.length >= 3, 'the listener sees the emission statements'); // claim, insert, outcome
  t.regex(seen[0]!, /^begin; update "emission"\."number_sequences"/, 'BEGIN travels with the claim');
});

import test from 'ava';
import { startStack } from '../support/stack.js';
import { integratorWithA1 } from '../support/e2e.js';
import { aValidNfseBody, NFSE_ISSUER } from '../support/nfse-factories.js';
import { emissionStatements, listed } from '../support/statement-count.js';

/**
 * The NFS-e counterpart of statement-budget.test.ts (issue 18): the emission service's own SQL
 * statements for one authorized DPS, the relay's polling excluded. Lower is welcome; higher fails
 * with the list. 2 statements, once the node foresees the série's next nDPS (18 before the DPS took
 * the NF-e's shape; 4 before the municipality's adherence, rule 9's read before numbering, was kept
 * per node for CACHE_LEASE_MS; 3 before the foreseen claim rode in the insert): the claim of the
 * nDPS (migration 076's claim_nfse_forecast) with the insert already TRANSMITTING, its two history
 * rows and the partner's first-document flag, in ONE statement committed by itself
 * (services/emission/group-claim.ts claimForecast); then the outcome as one statement of its own
 * (the update guarded by the attempt, with history, billing counter, adherence and outbox row).
 * Two round trips. The série's first group (the second DPS here) takes three: its claim sent with
 * BEGIN (services/shared/direct-transaction.ts), its insert with COMMIT
 * (services/shared/statement-then-commit.ts), the outcome.
 */
const EMISSION_STATEMENTS_PER_NFSE = 2;

test('an authorized NFS-e costs the emission service at most its budget of SQL statements, and writes all it did before', async (t) => {
  const stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  t.teardown(() => stack.stop());
  const { headers, issuerId, partner } = await integratorWithA1(stack, NFSE_ISSUER);
  const emit = () => stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  t.is((await emit()).status, 201); // the first DPS of the série creates its sequence row and learns the municipality's adherence
  // The second reads that adherence, which this node then keeps for its lease; the série's first group.
  const second = await emissionStatements(stack.knex, emit);
  t.is(second.result.status, 201, second.result.text);
  const numbering = second.statements.filter((s) => /"emission"\."nfse_(sequences|documents)" \(/.test(s) || /^begin; update "emission"\."nfse_sequences"/.test(s));
  t.is(numbering.length, 2, listed(second.statements));
  t.regex(numbering[0]!, /^begin; update "emission"\."nfse_sequences"/, 'BEGIN travels with the claim');
  t.regex(numbering[1]!, /^with created as [\s\S]*; commit$/, 'COMMIT travels with the insert');
  const { result: res, statements } = await emissionStatements(stack.knex, emit);
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'AUTHORIZED', nDPS: 3, serie: 1 });
  t.true(statements.length <= EMISSION_STATEMENTS_PER_NFSE, listed(statements));
  t.is(statements.length, 2, listed(statements)); // the listener sees them all: the foreseen claim with the insert, the outcome
  t.regex(statements[0]!, /^with claim as \(select "emission"\."claim_nfse_forecast"\(/, 'the claim rides in the insert');
  t.regex(statements[0]!, /insert into "emission"\."partner_first_documents"/, 'the first-document flag rides in the insert of the DPS');

  // Fewer statements, the same rows as before: the history, one event, the billing count, the adherence.
  const id = res.body.data.id;
  const history = await stack.knex('emission.nfse_history').where({ document_id: id }).orderBy('id');
  t.deepEqual(history.map((h: any) => [h.from_status, h.to_status, h.trigger, h.detail]), [
    [null, 'CREATED', 'emission', { idDps: res.body.data.idDps, nDps: 3 }],
    ['CREATED', 'TRANSMITTING', 'emission', { attempt: 1 }],
    ['TRANSMITTING', 'AUTHORIZED', 'submit:authorized', null],
  ]);
  const row = await stack.knex('emission.nfse_documents').where({ id }).first('status', 'transmissions', 'transmitting_until', 'next_check_at', 'chave_acesso');
  t.deepEqual(row, { status: 'AUTHORIZED', transmissions: 1, transmitting_until: null, next_check_at: null, chave_acesso: res.body.data.chaveAcesso });
  const events = (await stack.knex('emission.outbox').select('payload')).map((r: any) => r.payload).filter((p: any) => p.data?.nfseId === id);
  t.deepEqual(events.map((e: any) => [e.type, e.data.status, e.data.chaveAcesso, e.data.number]), [['invoice.authorized', 'AUTHORIZED', res.body.data.chaveAcesso, 3]]);
  // The partner's usage as the emission service answers it (its counters' slots summed).
  const { created_at: createdAt } = await stack.knex('emission.nfse_documents').where({ id }).first('created_at');
  const usage = await stack.nodes[0]!.call<Array<{ model: string; environment: number; keyKind: string; billable: boolean; count: number }>, any>(
    'v1.emission.usage', { partnerId: partner.partnerId, period: new Date(createdAt).toISOString().slice(0, 7) });
  const billed = usage.filter((r) => r.model === 'NFSe').map((r) => ({ environment: r.environment, key_kind: r.keyKind, billable: r.billable, count: r.count }));
  t.deepEqual(billed, [{ environment: 2, key_kind: 'live', billable: true, count: 3 }], 'summed over the counter\'s slots');
  const adherence = await stack.knex('emission.nfse_municipalities').select('codigo_municipio', 'environment', 'adesao', 'mensagem');
  t.deepEqual(adherence, [{ codigo_municipio: '3550308', environment: 2, adesao: 'aderente', mensagem: null }]);
});

import knexFactory, { type Knex } from 'knex';

/**
 * Documents queued behind one held in its numbering transaction (test/services/emission/
 * numbering-group.test.ts, nfse-numbering-group.test.ts): `numberOne` numbers a document through
 * the issuer's slot as the emission does. The first document's finishing waits until the others
 * have been submitted, so they wait for the slot together and are handed over as one group.
 */
export async function queuedBehindOne<Doc, Build extends (n: number) => Promise<unknown>, R>(
  numberOne: (doc: Doc, build: Build) => Promise<R>,
  doc: Doc,
  others: Array<{ doc?: Partial<Doc>; build?: Build }>,
  finished: Build,
): Promise<Array<PromiseSettledResult<R>>> {
  let open!: () => void;
  const gate = new Promise<void>((r) => { open = r; });
  let entered!: () => void;
  const inside = new Promise<void>((r) => { entered = r; });
  const held = (async (n: number) => { entered(); await gate; return finished(n); }) as Build;
  const first = numberOne(doc, held);
  await inside;
  const rest = others.map((o) => numberOne({ ...doc, ...o.doc }, o.build ?? finished));
  open();
  return Promise.allSettled([first, ...rest]);
}

/** Each settled numbering as its number, or its error's message. */
export function numbersOf<R>(settled: Array<PromiseSettledResult<R>>, numberOf: (r: R) => number): Array<number | string> {
  return settled.map((s) => (s.status === 'fulfilled' ? numberOf(s.value) : (s.reason as Error).message));
}

/**
 * A connection pool of the store's own on the stack's database, so that what a test records is only
 * what the store sent: the stack's own relays and timers poll on the shared one meanwhile (an
 * outbox claim once landed between a group's statements and failed CI).
 */
export function storeKnex(databaseUrl: string | null): Knex {
  if (!databaseUrl) throw new Error('these tests count statements on PostgreSQL: start the stack without pglite');
  return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 4 } });
}

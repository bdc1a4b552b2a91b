import type { Knex } from 'knex';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { DocumentStatus } from '../../lib/emission/state.js';
import { Bulkhead } from '../shared/bulkhead.js';
import { runStatement } from '../shared/pg-statement.js';
import type { OutboxRowsCte } from '../mixins/outbox.mixin.js';
import { HISTORY_COLUMNS } from './created-row.js';
import { billingRowsCte } from './transition-sql.js';
import type { AuthorityDetails } from './document-row.js';

/**
 * The terminal answers of notes this node transmitted itself, written together (issue 18). Each
 * used to be a statement and a commit of its own; under load the answers of several notes arrive
 * while the previous statement is still in flight, and the ones that waited are written in ONE
 * statement: one round trip, one commit (one WAL flush) and one increment of each billing counter
 * (a partner's hot row) for all of them. A note answered while no statement is waiting is written
 * at once, alone, as before: grouping adds no wait.
 *
 * Each note keeps its own guard: its row changes only while it is still TRANSMITTING under the
 * attempt, key and tpEmis it was sent with; its history row, billing count and outbox event follow
 * only if it changed. A note whose guard did not hold answers false and its caller decides under
 * the row lock (DocumentStore.applyOutcome), as a note alone did.
 */

/** Statements of outcomes in flight per node; the answers arriving meanwhile wait and go together. */
const OUTCOME_STATEMENTS = 2;
/** Notes one statement writes at most (each carries its nfeProc, a few KB for a small note). */
export const MAX_OUTCOME_GROUP = 32;
/**
 * The wait is bounded only so a stuck database cannot pile answers up forever: a refused note is
 * decided under the row lock instead (applyOutcome's general path), never lost.
 */
const MAX_WAITING = 10_000;
const WAIT_MS = 30_000;
/** Up to this many notes the statement is prepared (one text per count and mix of parts). */
const PREPARED_UP_TO = 4;

/** A terminal answer to the attempt `known` started, as the note will be once it is written. */
export interface OwnOutcome {
  /** The row as this process wrote it when the attempt started. */
  known: DocumentRecord;
  to: DocumentStatus;
  motivo: string | null;
  trigger: string;
  /** When it was answered: its updated_at and history time. */
  at: Date;
  details: AuthorityDetails;
  /** Its public event, if the transition has one. */
  event?: { type: string; partnerId: string; data: Record<string, unknown> };
}

export interface OutcomeGroupDeps {
  knex: Knex;
  schema: string;
  eventsCte(name: string, events: ReadonlyArray<{ key: string; event: NonNullable<OwnOutcome['event']> }>, keysIn: string): OutboxRowsCte;
}

export class OutcomeGroups {
  private readonly slots = new Bulkhead({ concurrency: OUTCOME_STATEMENTS, maxQueued: MAX_WAITING, queueTimeoutMs: WAIT_MS, maxGroup: MAX_OUTCOME_GROUP });

  constructor(private readonly d: OutcomeGroupDeps) {}

  /** Whether the outcome was written (false: its guard did not hold, or the wait was refused). */
  write(outcome: OwnOutcome): Promise<boolean> {
    return this.slots.runGrouped('outcomes', 'outcomes', outcome, (all) => this.writeAll(all), () => false);
  }

  /** One statement for the group; if it fails, each note alone, so one note cannot fail another's. */
  private async writeAll(outcomes: OwnOutcome[]): Promise<Array<PromiseSettledResult<boolean>>> {
    // A document twice in one group (two answers racing) would be updated twice by one statement:
    // the later ones are left to the row lock.
    const seen = new Set<string>();
    const unique = outcomes.filter((o) => !seen.has(o.known.id) && !!seen.add(o.known.id));
    try {
      const applied = await this.run(unique);
      return outcomes.map((o) => ({ status: 'fulfilled', value: unique.includes(o) && applied.has(o.known.id) }));
    } catch (err) {
      if (outcomes.length === 1) return [{ status: 'rejected', reason: err }];
      const settled: Array<PromiseSettledResult<boolean>> = [];
      for (const o of outcomes) {
        try {
          settled.push({ status: 'fulfilled', value: unique.includes(o) && (await this.run([o])).has(o.known.id) });
        } catch (reason) {
          settled.push({ status: 'rejected', reason });
        }
      }
      return settled;
    }
  }

  /** The statement; answers the ids it changed (their rows, history, counts and events are written). */
  private async run(outcomes: readonly OwnOutcome[]): Promise<Set<string>> {
    const t = (name: string) => `${this.d.schema}.${name}`;
    const inputs = outcomes.map((o) => [o.known.id, o.known.transmissions, o.known.accessKey, o.known.tpEmis, o.to, o.motivo,
      o.details.protocol ?? null, o.details.authorizedAt ?? null, o.details.erros ? JSON.stringify(o.details.erros) : null, o.details.authorizedXml ?? null,
      o.trigger, o.details.erros ? JSON.stringify({ erros: o.details.erros }) : null, o.at]);
    // The first row's casts type the VALUES list's columns.
    const input = outcomes.map((_, i) => (i === 0
      ? '(?::uuid, ?::int, ?::text, ?::smallint, ?::text, ?::text, ?::text, ?::timestamptz, ?::jsonb, ?::text, ?::text, ?::jsonb, ?::timestamptz)'
      : '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')).join(', ');
    const billed = outcomes.filter((o) => o.to === 'AUTHORIZED');
    const billing = billed.length ? billingRowsCte(t('billing_counters'), billed.map((o) => o.known), 'changed') : undefined;
    const withEvents = outcomes.filter((o) => o.event);
    const events = withEvents.length ? this.d.eventsCte('events', withEvents.map((o) => ({ key: o.known.id, event: o.event! })), 'changed') : undefined;
    const sql = `with input (id, transmissions, access_key, tp_emis, status, motivo, protocol, authorized_at, erros, authorized_xml, trigger, detail, at) as (values ${input}),
      changed as (update ?? as d set status = i.status, motivo = i.motivo, updated_at = i.at, transmitting_until = null, next_check_at = null,
          protocol = coalesce(i.protocol, d.protocol), authorized_at = coalesce(i.authorized_at, d.authorized_at),
          erros = coalesce(i.erros, d.erros), authorized_xml = coalesce(i.authorized_xml, d.authorized_xml)
        from input as i
        where d.id = i.id and d.status = 'TRANSMITTING' and d.transmissions = i.transmissions
          and d.access_key is not distinct from i.access_key and d.tp_emis = i.tp_emis
        returning d.id),
      logged as (insert into ?? (${HISTORY_COLUMNS}) select i.id, 'TRANSMITTING', i.status, i.trigger, i.motivo, i.detail, i.at from input as i join changed as c on c.id = i.id)
      ${billing ? `, ${billing.sql}` : ''}${events ? `, ${events.sql}` : ''}
      select id from changed`;
    const bindings: Knex.Value[] = [...inputs.flat() as Knex.Value[], t('documents'), t('document_history'), ...(billing?.bindings ?? []), ...(events?.bindings ?? [])];
    const { rows } = await runStatement(this.d.knex, sql, bindings, { prepare: outcomes.length <= PREPARED_UP_TO });
    const changed = new Set<string>(rows.map((r: { id: string }) => r.id));
    events?.written(changed);
    return changed;
  }
}

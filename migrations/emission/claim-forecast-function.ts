/**
 * The emission's claim_forecast and claim_nfse_forecast functions (services/emission/numbering-group.ts, issue 18): the
 * claim of a group whose numbers this node foresaw, run inside the one statement that also stores
 * the group's documents, so numbering them costs one round trip and the series' lock is held only
 * while that statement runs and commits.
 *
 * It advances the sequence only from `p_first` (the forecast), and raises otherwise: the whole
 * statement is then refused and nothing of it stays. A function, not a plain CTE, for the reason of
 * the simulator's authorize_note (migrations/simulator/authorize-note-function.ts): its check of
 * the inutilizações runs after the row lock was granted, with a fresh snapshot (READ COMMITTED,
 * VOLATILE), so a range committed by the lock's previous holder is seen; the statement's own
 * snapshot predates that wait. A number a passthrough note holds fails the documents' unique index.
 * No inutilização holds an nDPS: claim_nfse_forecast only advances the série's sequence.
 */
export function claimForecastFunctions(schema: string): string[] {
  // The schema is written into the function's body: a plain identifier only.
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);
  const t = (name: string) => `${schema}.${name}`;
  // Two statements: PGlite (the embedded database) runs one per call.
  return [`
        create or replace function ${t('claim_forecast')}(p_issuer_id uuid, p_model text, p_series integer, p_environment smallint, p_first integer, p_count integer)
        returns integer
        language plpgsql volatile as $fn$
        begin
          update ${t('number_sequences')} set next_number = next_number + p_count
            where issuer_id = p_issuer_id and model = p_model and series = p_series and environment = p_environment and next_number = p_first;
          if not found then
            raise exception 'claim_forecast: the series does not continue at %', p_first using errcode = 'P0001';
          end if;
          if exists (select 1 from ${t('inutilizacoes')} i where i.issuer_id = p_issuer_id and i.model = p_model and i.series = p_series
              and i.environment = p_environment and i.status <> 'REJECTED' and i.start_number < p_first + p_count and i.end_number >= p_first) then
            raise exception 'claim_forecast: an inutilização holds a number from % on', p_first using errcode = 'P0001';
          end if;
          return p_first;
        end
        $fn$`, `
        create or replace function ${t('claim_nfse_forecast')}(p_issuer_id uuid, p_serie integer, p_environment smallint, p_first bigint, p_count integer)
        returns bigint
        language plpgsql volatile as $fn$
        begin
          update ${t('nfse_sequences')} set next_number = next_number + p_count
            where issuer_id = p_issuer_id and serie = p_serie and environment = p_environment and next_number = p_first;
          if not found then
            raise exception 'claim_nfse_forecast: the série does not continue at %', p_first using errcode = 'P0001';
          end if;
          return p_first;
        end
        $fn$`];
}

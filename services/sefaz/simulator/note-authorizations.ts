import { Bulkhead, settleEach } from '../../shared/bulkhead.js';
import type { AuthorizationOutcome, NoteAuthorization, SimulatorStore } from './store.js';

/**
 * The authorizations the simulator writes (issue 18), grouped as the emission groups its outcomes
 * (services/emission/outcome-group.ts): an authorization that finds fewer than STATEMENTS_IN_FLIGHT
 * statements in flight is written at once, alone; the ones that arrive meanwhile wait and go
 * together in ONE statement and one commit (SimulatorStore.authorizeNotes). At peak each note had
 * a statement, a commit and a WAL flush of its own, about a quarter of the machine's Postgres work
 * per note. Grouping adds no wait to an authorization that finds a statement free.
 *
 * Each authorization keeps its own answer (inserted, 206, 204, 539), as when written alone. If a
 * group's statement fails, each of its authorizations is written alone, so one cannot fail another.
 */
const STATEMENTS_IN_FLIGHT = 2;
/** Authorizations one statement writes at most (each carries its protNFe, under 1 KB). */
const MAX_GROUP = 16;
/** Bounded only so a stuck database cannot pile requests up forever; the client then times out and consults. */
const MAX_WAITING = 10_000;
const WAIT_MS = 30_000;

export class NoteAuthorizations {
  private readonly slots = new Bulkhead({ concurrency: STATEMENTS_IN_FLIGHT, maxQueued: MAX_WAITING, queueTimeoutMs: WAIT_MS, maxGroup: MAX_GROUP });

  constructor(private readonly store: SimulatorStore) {}

  authorize(a: NoteAuthorization): Promise<AuthorizationOutcome> {
    return this.slots.runGrouped('notes', 'notes', a, (all) => this.writeAll(all), (r) => {
      throw new Error(`simulator: the authorization waited too long for the database (${r.reason})`);
    });
  }

  private async writeAll(all: NoteAuthorization[]): Promise<Array<PromiseSettledResult<AuthorizationOutcome>>> {
    try {
      return (await this.store.authorizeNotes(all)).map((value) => ({ status: 'fulfilled', value }));
    } catch (err) {
      if (all.length === 1) return [{ status: 'rejected', reason: err }];
      return settleEach(all, (a) => this.store.authorizeNote(a));
    }
  }
}

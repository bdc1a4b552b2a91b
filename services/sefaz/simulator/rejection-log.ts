/**
 * What a rejection's xMotivo does not say (the authority answers 215/225 with the table text only):
 * the schema messages and the signature's reason, kept for the partner to read on the admin port
 * (`GET /__admin/rejeicoes`) and written to the simulator's log. A bounded in-memory ring: it is a
 * debugging aid of one simulator process, nothing depends on it.
 */
export interface RejectionDetail {
  at: string;
  service: string;
  cStat: number;
  /** Access key, event Id or inutilização Id when the message had one. */
  id?: string;
  details: string[];
}

export class RejectionLog {
  private readonly entries: RejectionDetail[] = [];

  constructor(private readonly capacity = 200, private readonly log?: (msg: string, extra?: Record<string, unknown>) => void) {}

  record(entry: RejectionDetail): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    this.log?.('simulator rejection detail', { ...entry });
  }

  /** Newest first. */
  list(limit = 50): RejectionDetail[] {
    return this.entries.slice(-limit).reverse();
  }
}

import { randomUUID } from 'node:crypto';
import type { Service, ServiceSchema } from 'moleculer';
import type { Knex } from 'knex';
import { runtimeOf } from '../shared/runtime.js';
import { dueExpiryThreshold, expiryWindowEnd } from '../../lib/issuer/expiry.js';
import { issuerService, type IssuerSelf } from './service-this.js';

/** The job runs on every node this often; a run is idempotent, so nodes need no coordination. */
const EXPIRY_JOB_EVERY_MS = 60 * 60_000;

/** certificate.expiring (API.md, Events; issue 4, item 8). Needs DbMixin and OutboxMixin. */
export const CertificateExpiryMixin: Partial<ServiceSchema> = {
  actions: {
    /** The daily job, also callable (tests drive it with a ManualClock). Returns what this run did. */
    runCertificateExpiryCheck: {
      visibility: 'public',
      async handler(this: IssuerSelf) {
        return this.certificateExpiryCheck();
      },
    },
  },
  methods: {
    /**
     * certificate.expiring, exactly once per (issuer, certificate serial, threshold) with any
     * number of nodes: the notice row and the outbox event commit together, and the notice's
     * primary key makes every other node's insert a no-op.
     */
    async certificateExpiryCheck(this: IssuerSelf): Promise<{ checked: number; emitted: number }> {
      const now: Date = runtimeOf(this.broker).clock.now();
      const rows = await this.knex(this.t('issuers')).select('id', 'partner_id', 'cnpj', 'cert_summary', 'cert_not_after')
        .whereNotNull('cert_summary').whereNull('deleted_at').where('cert_not_after', '>', now).where('cert_not_after', '<=', expiryWindowEnd(now));
      let emitted = 0;
      for (const row of rows) {
        const cert = typeof row.cert_summary === 'string' ? JSON.parse(row.cert_summary) : row.cert_summary;
        const due = dueExpiryThreshold(new Date(cert.notAfter), now);
        if (!due) continue;
        const eventId = randomUUID();
        const sent = await this.knex.transaction(async (trx: Knex.Transaction) => {
          const inserted = await trx(this.t('certificate_expiry_notices'))
            .insert({ issuer_id: row.id, serial: cert.serial, threshold: due.threshold, event_id: eventId, created_at: now })
            .onConflict(['issuer_id', 'serial', 'threshold']).ignore().returning('event_id');
          if (!inserted.length) return false;
          await this.enqueueEvent(trx, {
            id: eventId, type: 'certificate.expiring', partnerId: row.partner_id,
            data: { issuerId: row.id, cnpj: row.cnpj, daysUntilExpiry: due.daysUntilExpiry, notAfter: cert.notAfter, serial: cert.serial },
          });
          return true;
        });
        if (sent) emitted++;
      }
      return { checked: rows.length, emitted };
    },
  },
  started(this: Service) {
    const self = issuerService(this);
    const run = () => self.certificateExpiryCheck().catch((err: Error) => self.logger.warn({ err: err.message }, 'certificate expiry check failed; next run retries'));
    self.expiryFirstRun = setTimeout(run, 60_000);
    self.expiryFirstRun.unref?.();
    self.expiryTimer = setInterval(run, EXPIRY_JOB_EVERY_MS);
    self.expiryTimer.unref?.();
  },
  stopped(this: Service) {
    const self = issuerService(this);
    clearTimeout(self.expiryFirstRun);
    clearInterval(self.expiryTimer);
  },
};

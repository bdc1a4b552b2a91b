import type { Knex } from 'knex';
import { validationError } from '../../lib/errors/index.js';
import { generateWebhookSecret, maskWebhookSecret } from '../../lib/webhooks/secret.js';
import { sealSecret, type BoxKey } from '../../lib/webhooks/secret-box.js';

export interface WebhookConfigRow {
  partnerId: string;
  webhookUrl: string | null;
  events: string[];
  secretHint: string | null;
}

/** The config as the API shows it (API.md, Endpoints > Webhooks). */
export interface WebhookConfigView {
  webhookUrl: string | null;
  webhookSecret: string | null;
  events: string[];
  revealedOnce: boolean;
}

const fromRow = (r: any): WebhookConfigRow => ({
  partnerId: r.partner_id,
  webhookUrl: r.webhook_url ?? null,
  events: typeof r.events === 'string' ? JSON.parse(r.events) : (r.events ?? []),
  secretHint: r.secret_hint ?? null,
});

/** Secrets are bound to their partner (AAD) so a sealed value copied to another row does not open. */
export const secretAad = (partnerId: string) => `webhook-secret:${partnerId}`;

/** One webhook configuration per partner; the secret is generated here and stored sealed. */
export class ConfigStore {
  constructor(private readonly knex: Knex, private readonly schema: string, private readonly keys: readonly BoxKey[]) {}

  private get table(): string {
    return `${this.schema}.configs`;
  }

  async get(partnerId: string): Promise<WebhookConfigRow | null> {
    const row = await this.knex(this.table).where({ partner_id: partnerId }).first();
    return row ? fromRow(row) : null;
  }

  /** The configurations of these partners, by partner id, in one query (a batch of events). */
  async getMany(partnerIds: readonly string[]): Promise<Map<string, WebhookConfigRow>> {
    if (!partnerIds.length) return new Map();
    const rows = await this.knex(this.table).whereIn('partner_id', [...partnerIds]);
    return new Map(rows.map((r: any) => [r.partner_id, fromRow(r)]));
  }

  /** A page of configurations with a webhook URL, by partner id (fan-out of platform-wide events). */
  async withWebhook(afterPartnerId: string | null, limit: number): Promise<WebhookConfigRow[]> {
    const q = this.knex(this.table).whereNotNull('webhook_url').orderBy('partner_id').limit(limit);
    if (afterPartnerId !== null) q.where('partner_id', '>', afterPartnerId);
    return (await q).map(fromRow);
  }

  /** Locks the partner's row, creating an empty one first (two first PATCHes at once serialise here). */
  private async lock(trx: Knex.Transaction, partnerId: string, now: Date): Promise<any> {
    await trx(this.table).insert({ partner_id: partnerId, events: JSON.stringify([]), created_at: now, updated_at: now }).onConflict('partner_id').ignore();
    return trx(this.table).where({ partner_id: partnerId }).forUpdate().first();
  }

  private sealedColumns(partnerId: string, secret: string) {
    const sealed = sealSecret(this.keys, secret, secretAad(partnerId));
    return { secret_sealed: sealed.sealed, secret_key_id: sealed.keyId, secret_hint: maskWebhookSecret(secret) };
  }

  /**
   * Applies a PATCH. The full secret is revealed only when this call sets a URL for a partner that
   * had no secret (revealedOnce: true); any later call shows it masked. A partner without a URL
   * must send one (400, nothing stored).
   */
  async patch(partnerId: string, patch: { webhookUrl?: string | null; events?: string[] | null }, now: Date): Promise<WebhookConfigView> {
    return this.knex.transaction(async (trx) => {
      const row = await this.lock(trx, partnerId, now);
      const url: string | null = patch.webhookUrl ?? row.webhook_url ?? null;
      if (!url) throw validationError([{ field: 'webhookUrl', message: 'webhookUrl é obrigatório na primeira configuração.' }]);
      const events = patch.events ?? (typeof row.events === 'string' ? JSON.parse(row.events) : row.events) ?? [];
      const update: Record<string, unknown> = { webhook_url: url, events: JSON.stringify(events), updated_at: now };
      let revealed: string | null = null;
      if (!row.secret_sealed) {
        revealed = generateWebhookSecret();
        Object.assign(update, this.sealedColumns(partnerId, revealed));
      }
      await trx(this.table).where({ partner_id: partnerId }).update(update);
      return { webhookUrl: url, webhookSecret: revealed ?? row.secret_hint, events, revealedOnce: revealed !== null };
    });
  }

  /** Replaces the secret; the old one stops signing at once (deliveries read the current one). */
  async regenerate(partnerId: string, now: Date): Promise<string> {
    const secret = generateWebhookSecret();
    await this.knex.transaction(async (trx) => {
      await this.lock(trx, partnerId, now);
      await trx(this.table).where({ partner_id: partnerId }).update({ ...this.sealedColumns(partnerId, secret), updated_at: now });
    });
    return secret;
  }
}

export function viewOf(row: WebhookConfigRow | null): WebhookConfigView {
  if (!row) return { webhookUrl: null, webhookSecret: null, events: [], revealedOnce: false };
  return { webhookUrl: row.webhookUrl, webhookSecret: row.secretHint, events: row.events, revealedOnce: false };
}

import type { Context, Service, ServiceSchema } from 'moleculer';
import { DbMixin, type DbMethods } from '../mixins/db.mixin.js';
import { migrations } from '../../migrations/emission/index.js';
import { partnerActivity } from './partner-activity.js';

/**
 * The one question an operator command asks emission (bin/admin.ts, deactivate-partner without a
 * transporter): whether a partner has documents. The full emission service would also start its
 * outbox relay, which, in a process without the webhook consumers, would mark pending events as
 * delivered. This answers from emission's own table with emission's own code, and does nothing else.
 */
export const EmissionActivityService: ServiceSchema = {
  name: 'emission',
  version: 1,
  mixins: [DbMixin({ schema: 'emission', migrations })],
  actions: {
    partnerActivity: {
      visibility: 'public',
      params: { partnerId: 'string' },
      handler(this: Service & DbMethods, ctx: Context<{ partnerId: string }>) {
        return partnerActivity(this.knex, 'emission', ctx.params.partnerId);
      },
    },
  },
};

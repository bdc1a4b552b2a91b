import type { Migration } from '../services/shared/migrations.js';
import { migrations as gateway } from './gateway/index.js';
import { migrations as simulator } from './simulator/index.js';
import { migrations as issuer } from './issuer/index.js';
import { migrations as webhooks } from './webhooks/index.js';
import { migrations as auth } from './auth/index.js';
import { migrations as emission } from './emission/index.js';
import { migrations as classification } from './classification/index.js';
import { migrations as monitor } from './monitor/index.js';

/**
 * Every schema and its migrations, for `npm run migrate` (services also migrate their own schema
 * when they start, so a node never runs against an older schema than its code).
 */
export const ALL_MIGRATIONS: Record<string, readonly Migration[]> = {
  gateway,
  simulator,
  issuer,
  webhooks,
  auth,
  emission,
  classification,
  monitor,
};

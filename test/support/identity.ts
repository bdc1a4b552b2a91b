import { randomBytes } from 'node:crypto';
import type { Plan } from '../../lib/plans.js';
import { totpAt } from '../../lib/auth/totp.js';
import type { Stack } from './stack.js';

/**
 * Real credentials for integration tests, through the auth service's actions on stack.nodes[0]
 * (the stack must run the `auth` service). Tests of other services use these to call the API
 * with a real x-api-key or Bearer token instead of the FakeAuthService.
 */
export interface PartnerWithKey {
  partnerId: string;
  apiKey: string;
  keyKind: 'live' | 'test';
  ownerEmail: string;
  ownerPassword: string;
  ownerUserId: string;
}

export const TEST_PASSWORD = 'Senha-de-teste-123';

function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

export async function createPartnerWithKey(stack: Stack, opts: { plan?: Plan; subscription?: 'ACTIVE' | 'INACTIVE'; keyKind?: 'live' | 'test'; name?: string } = {}): Promise<PartnerWithKey> {
  const broker = stack.nodes[0]!;
  const ownerEmail = uniqueEmail('owner');
  const partner: any = await broker.call('v1.auth.createPartner', {
    name: opts.name ?? `Parceiro ${randomBytes(3).toString('hex')}`, ownerEmail, ownerName: 'Owner Teste', ownerPassword: TEST_PASSWORD,
    plan: opts.plan ?? 'DEV', subscription: opts.subscription ?? 'ACTIVE',
  });
  const keyKind = opts.keyKind ?? 'live';
  const key: any = await broker.call('v1.auth.issueKey', { partnerId: partner.partnerId, kind: keyKind });
  return { partnerId: partner.partnerId, apiKey: key.apiKey, keyKind, ownerEmail, ownerPassword: TEST_PASSWORD, ownerUserId: partner.owner.id };
}

export interface LoggedIn {
  userId: string;
  email: string;
  password: string;
  partnerId: string | null;
  accessToken: string;
  refreshToken: string;
  /** TOTP secret when the login had to enroll 2FA (owner, superadmin). */
  totpSecret?: string;
  recoveryCodes?: string[];
  headers: { authorization: string };
}

/**
 * Logs in as a new user: `role` ADMIN or CONTADOR of `partnerId` (created with a key when absent),
 * the partner owner (`owner: true`, enrolls 2FA) or the platform SUPERADMIN (enrolls 2FA).
 */
export async function loginAs(stack: Stack, opts: { role?: 'ADMIN' | 'CONTADOR' | 'SUPERADMIN'; owner?: boolean; partnerId?: string; now?: () => Date } = {}): Promise<LoggedIn> {
  const broker = stack.nodes[0]!;
  const now = opts.now ?? (() => new Date());
  const role = opts.role ?? 'ADMIN';
  const email = uniqueEmail(role.toLowerCase());
  let partnerId: string | null = null;
  let userId: string;
  if (role === 'SUPERADMIN') {
    userId = ((await broker.call('v1.auth.createSuperadmin', { email, password: TEST_PASSWORD, name: 'Super Admin' })) as any).id;
  } else if (opts.owner) {
    const p: any = await broker.call('v1.auth.createPartner', { name: 'Parceiro do owner', ownerEmail: email, ownerName: 'Owner', ownerPassword: TEST_PASSWORD, subscription: 'ACTIVE' });
    partnerId = p.partnerId;
    userId = p.owner.id;
  } else {
    partnerId = opts.partnerId ?? (await createPartnerWithKey(stack)).partnerId;
    userId = ((await broker.call('v1.auth.createUser', { partnerId, email, password: TEST_PASSWORD, name: 'Usuário Teste', role })) as any).id;
  }
  const meta = { ip: '10.255.0.1' };
  const res: any = await broker.call('v1.auth.login', { email, password: TEST_PASSWORD }, { meta });
  if (res.access_token) {
    return { userId, email, password: TEST_PASSWORD, partnerId, accessToken: res.access_token, refreshToken: res.refresh_token, headers: { authorization: `Bearer ${res.access_token}` } };
  }
  const caller = await broker.call('v1.auth.authenticate', { authorization: `Bearer ${res.mfa_token}`, purpose: 'mfa' });
  const setup: any = await broker.call('v1.auth.setup2fa', {}, { meta: { caller } });
  const enabled: any = await broker.call('v1.auth.enable2fa', { totpCode: totpAt(setup.secret, now()) }, { meta: { caller } });
  return {
    userId, email, password: TEST_PASSWORD, partnerId, accessToken: enabled.access_token, refreshToken: enabled.refresh_token,
    totpSecret: setup.secret, recoveryCodes: enabled.recoveryCodes, headers: { authorization: `Bearer ${enabled.access_token}` },
  };
}

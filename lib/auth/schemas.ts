import { PASSWORD_MAX, PASSWORD_MIN } from './password.js';
import { PLANS } from '../plans.js';

/**
 * Request schemas of the authentication routes (fastest-validator; the same objects feed the
 * OpenAPI document) and the JSON Schemas of their responses. Bodies are strict: unknown keys
 * refuse 400 with details.camposDesconhecidos. Source: API.md, Endpoints > Authentication routes.
 */
const email = { type: 'email', max: 254 } as const;
const newPassword = { type: 'string', min: PASSWORD_MIN, max: PASSWORD_MAX } as const;
// Login accepts any non-empty password up to a sane bound: length rules apply when setting one.
const anyPassword = { type: 'string', min: 1, max: 1024 } as const;
const totpCode = { type: 'string', pattern: /^\d{6}$/, optional: true } as const;
const recoveryCode = { type: 'string', min: 10, max: 20, optional: true } as const;
const uuid = { type: 'uuid' } as const;
const name = { type: 'string', min: 2, max: 200, trim: true } as const;

export const loginSchema = { $$strict: true, email, password: anyPassword, totpCode, recoveryCode } as const;
export const verifySchema = { $$strict: true, mfaToken: { type: 'string', min: 1, max: 4096 }, totpCode, recoveryCode } as const;
export const enableSchema = { $$strict: true, totpCode: { type: 'string', pattern: /^\d{6}$/ } } as const;
export const disableSchema = { $$strict: true, password: anyPassword, totpCode } as const;
export const refreshSchema = { $$strict: true, refreshToken: { type: 'string', min: 1, max: 512 } } as const;
export const logoutSchema = { $$strict: true, all: { type: 'boolean', optional: true, convert: true, default: false } } as const;
export const changePasswordSchema = { $$strict: true, currentPassword: anyPassword, newPassword } as const;
export const forgotPasswordSchema = { $$strict: true, email } as const;
export const resetPasswordSchema = { $$strict: true, token: { type: 'string', min: 1, max: 512 }, newPassword } as const;
export const acceptInviteSchema = { $$strict: true, token: { type: 'string', min: 1, max: 512 }, name, password: newPassword } as const;

export const DOCUMENT_MODELS = ['NFE', 'NFCE', 'NFSE'] as const;
export const registerSchema = {
  $$strict: true,
  name,
  email,
  company: name,
  whatsapp: { type: 'string', min: 1, max: 30 },
  emits: { type: 'array', items: { type: 'enum', values: DOCUMENT_MODELS }, min: 1, max: 3, unique: true },
  volumePerMonth: { type: 'number', integer: true, min: 0, max: 100_000_000, optional: true },
  erpStack: { type: 'string', max: 200, optional: true, trim: true },
} as const;

const plan = { type: 'enum', values: PLANS, optional: true } as const;
const subscription = { type: 'enum', values: ['ACTIVE', 'INACTIVE'], optional: true } as const;

export const registerPartnerSchema = {
  $$strict: true,
  name,
  ownerEmail: email,
  ownerName: { ...name, optional: true },
  plan,
  subscription,
  accessRequestId: { ...uuid, optional: true },
} as const;
export const idParamSchema = { $$strict: true, id: uuid } as const;
export const ownerInviteSchema = { $$strict: true, id: uuid, email: { ...email, optional: true }, name: { ...name, optional: true } } as const;
export const listAccessRequestsSchema = {
  $$strict: true,
  status: { type: 'enum', values: ['PENDING', 'APPROVED'], optional: true },
  limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true, default: 50 },
  offset: { type: 'number', integer: true, min: 0, convert: true, optional: true, default: 0 },
} as const;

// Responses (OpenAPI `response`: the `data` of the envelope)
const userObject = {
  type: 'object',
  properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, partnerId: { type: ['string', 'null'] }, role: { type: 'string' } },
};
export const sessionResponse = {
  type: 'object',
  required: ['access_token', 'refresh_token', 'token_type', 'expires_in'],
  properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' }, token_type: { const: 'Bearer' }, expires_in: { type: 'integer' }, user: userObject },
};
export const loginResponse = {
  oneOf: [
    sessionResponse,
    {
      type: 'object',
      description: '2FA pendente: use mfa_token em /v1/auth/2fa/verify (ou /setup e /enable quando mfa_enrollment_required).',
      // `required` on both makes them exclusive, as oneOf needs: a session never has mfa_token.
      required: ['mfa_required', 'mfa_token', 'expires_in'],
      properties: { mfa_required: { const: true }, mfa_enrollment_required: { type: 'boolean' }, mfa_token: { type: 'string' }, expires_in: { const: 300 } },
    },
  ],
};
export const apiKeyResponse = {
  type: 'object',
  properties: { apiKey: { type: 'string', description: 'Mostrada uma única vez.' }, kind: { enum: ['live', 'test'] }, keyId: { type: 'string' }, createdAt: { type: 'string' } },
};
export const messageResponse = { type: 'object', properties: { message: { type: 'string' } } };

import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isIdShaped } from '../validation/uuid.js';

/**
 * JWTs (API.md, Authentication > JWT bearer): HS256. Access tokens live 12 h and carry the session
 * id (`sid`) that authenticate checks on every request, so logout is immediate. mfa tokens live
 * 5 min and only open /v1/auth/2fa/*: `typ` keeps one kind from being accepted as the other.
 * An mfa token also carries a `jti`: the auth service records it when the token completes a
 * login, so the token works once (services/auth/mfa-tokens.ts). Time is an argument (`now`),
 * never the process clock.
 */
export const ACCESS_TTL_S = 12 * 3600;
export const MFA_TTL_S = 300;
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
export const RESET_TTL_MS = 3600 * 1000;
export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export type TokenType = 'access' | 'mfa';

export interface AccessClaims {
  typ: 'access';
  sub: string;
  sid: string;
  /** When the token stops being valid (its exp): a cached authentication must not outlive it. */
  expiresAt: Date;
}

export interface MfaClaims {
  typ: 'mfa';
  sub: string;
  /** Unique id of this token: what marks it spent. */
  jti: string;
  /** When the token stops being valid anyway; the spent mark must outlive it. */
  expiresAt: Date;
}

const ISSUER = 'fiscal-api';

function sign(payload: Record<string, unknown>, secret: string, now: Date, ttl: number): string {
  return jwt.sign({ ...payload, iat: Math.floor(now.getTime() / 1000) }, secret, { algorithm: 'HS256', expiresIn: ttl, issuer: ISSUER });
}

export function signAccessToken(userId: string, sessionId: string, secret: string, now: Date): string {
  return sign({ typ: 'access', sub: userId, sid: sessionId }, secret, now, ACCESS_TTL_S);
}

export function signMfaToken(userId: string, secret: string, now: Date, jti: string = randomUUID()): string {
  return sign({ typ: 'mfa', sub: userId, jti }, secret, now, MFA_TTL_S);
}

/** The claims of a valid token of the expected type, or null (bad signature, expired, wrong type). */
export function verifyToken(token: string, type: 'access', secret: string, now: Date): AccessClaims | null;
export function verifyToken(token: string, type: 'mfa', secret: string, now: Date): MfaClaims | null;
export function verifyToken(token: string, type: TokenType, secret: string, now: Date): AccessClaims | MfaClaims | null {
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, clockTimestamp: Math.floor(now.getTime() / 1000) }) as jwt.JwtPayload;
    if (claims.typ !== type || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    if (type === 'access') return typeof claims.sid === 'string' ? { typ: 'access', sub: claims.sub, sid: claims.sid, expiresAt: new Date(claims.exp * 1000) } : null;
    // Without a jti the token could not be marked spent: refused (only tokens signed before
    // single use existed lack one, and those expire within 5 minutes of the upgrade).
    if (typeof claims.jti !== 'string' || !isIdShaped(claims.jti)) return null;
    return { typ: 'mfa', sub: claims.sub, jti: claims.jti, expiresAt: new Date(claims.exp * 1000) };
  } catch {
    return null;
  }
}

/** `Bearer <token>` → token, case-insensitive scheme; null otherwise. */
export function bearerToken(authorization: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m ? m[1]! : null;
}

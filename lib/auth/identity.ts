/**
 * Small identity rules: e-mail normalization, whatsapp (API.md, Authentication routes: 10 or 11
 * digits with area code, formatting ignored), who must use 2FA (Two-factor 1), masking for logs.
 */
export type UserRole = 'SUPERADMIN' | 'ADMIN' | 'CONTADOR';
export const USER_ROLES: readonly UserRole[] = ['SUPERADMIN', 'ADMIN', 'CONTADOR'];

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Digits of a Brazilian phone with area code (DDD 11-99), or null when it is not one. */
export function normalizeWhatsapp(raw: string): string | null {
  if (/[^\d\s()+.-]/.test(raw)) return null;
  let digits = raw.replace(/\D/g, '');
  // A leading +55 country code is formatting, not part of the number.
  if (raw.trim().startsWith('+') && digits.startsWith('55') && digits.length > 11) digits = digits.slice(2);
  if (!/^[1-9][1-9]\d{8,9}$/.test(digits)) return null;
  return digits;
}

/** Platform superadmin and partner owner must use 2FA; others may. */
export function requiresTwoFactor(role: UserRole, isOwner: boolean): boolean {
  return role === 'SUPERADMIN' || isOwner;
}

/** `fulano@empresa.com` → `fu***@empresa.com`, for log lines. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  if (!domain) return '***';
  return `${local!.slice(0, 2)}***@${domain}`;
}

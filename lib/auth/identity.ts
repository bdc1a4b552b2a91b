/**
 * Small identity rules: e-mail normalization, whatsapp (API.md, Authentication routes: 10 or 11
 * digits with area code, formatting ignored), who must use 2FA (Two-factor 1), masking for logs.
 */
export type UserRole = 'SUPERADMIN' | 'ADMIN' | 'CONTADOR';
export const USER_ROLES: readonly UserRole[] = ['SUPERADMIN', 'ADMIN', 'CONTADOR'];

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Digits of a Brazilian phone with area code (DDD 11-99), or null when it is not one. Only
 * spaces, parentheses, `+`, `.` and `-` are formatting; every digit counts, a country code
 * included: `+55 11 98765-4321` has 13 digits and is refused (API.md: 10 or 11 digits, otherwise 400).
 */
export function normalizeWhatsapp(raw: string): string | null {
  if (/[^\d\s()+.-]/.test(raw)) return null;
  const digits = raw.replace(/\D/g, '');
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

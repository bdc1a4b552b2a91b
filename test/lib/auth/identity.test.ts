import test from 'ava';
import { normalizeWhatsapp, normalizeEmail, requiresTwoFactor, maskEmail } from '../../../lib/auth/identity.js';
import { generateRecoveryCodes, hashRecoveryCode } from '../../../lib/auth/recovery-codes.js';

test('normalizeWhatsapp keeps 10 or 11 digits with area code, ignoring formatting', (t) => {
  t.is(normalizeWhatsapp('(11) 98765-4321'), '11987654321');
  t.is(normalizeWhatsapp('11 3456-7890'), '1134567890');
  t.is(normalizeWhatsapp('+(21) 99876.5432'), '21998765432');
});

test('normalizeWhatsapp refuses short, long (a +55 country code counts: 13 digits), letters and area codes with 0', (t) => {
  for (const bad of ['98765-4321', '119876543210', '+55 11 98765-4321', '+55 (21) 3456-7890', '11-ABCD-4321', '(01) 98765-4321', '']) t.is(normalizeWhatsapp(bad), null, bad);
});

test('normalizeEmail lower-cases and trims; maskEmail hides the local part', (t) => {
  t.is(normalizeEmail('  Ana@Empresa.COM '), 'ana@empresa.com');
  t.is(maskEmail('fulano@empresa.com'), 'fu***@empresa.com');
});

test('requiresTwoFactor for SUPERADMIN and partner owner only', (t) => {
  t.true(requiresTwoFactor('SUPERADMIN', false));
  t.true(requiresTwoFactor('ADMIN', true));
  t.false(requiresTwoFactor('ADMIN', false));
  t.false(requiresTwoFactor('CONTADOR', false));
});

test('recovery codes are unique and hash the same in any case or without hyphen', (t) => {
  const codes = generateRecoveryCodes();
  t.is(codes.length, 10);
  t.is(new Set(codes).size, 10);
  const c = codes[0]!;
  t.regex(c, /^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  t.is(hashRecoveryCode(c.toLowerCase().replace('-', '')), hashRecoveryCode(c));
});

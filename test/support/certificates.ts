import forge from 'node-forge';

/** Test certificates: the same generator the simulator's sandbox PKI uses. */
export * from '../../services/sefaz/simulator/test-certificates.js';

/**
 * An RSA private key of `bits` made of random odd factors instead of primes: generating a real
 * 16384-bit key takes minutes, and nothing before a signature can tell (an upload's checks read
 * the modulus, never use the key).
 */
export function fabricatedRsaKey(bits: number): forge.pki.rsa.PrivateKey {
  const half = (): forge.jsbn.BigInteger => {
    const bytes = forge.random.getBytesSync(bits / 16);
    // Top two bits set so the product has exactly `bits` bits; low bit set: odd.
    const fixed = String.fromCharCode(bytes.charCodeAt(0) | 0xc0) + bytes.slice(1, -1) + String.fromCharCode(bytes.charCodeAt(bytes.length - 1) | 1);
    return new forge.jsbn.BigInteger(forge.util.bytesToHex(fixed), 16);
  };
  const [p, q] = [half(), half()];
  const n = p.multiply(q);
  const e = new forge.jsbn.BigInteger('65537');
  const d = half().multiply(half()).mod(n);
  const one = forge.jsbn.BigInteger.ONE;
  return forge.pki.setRsaPrivateKey(n, e, d, p, q, d.mod(p.subtract(one)), d.mod(q.subtract(one)), one);
}

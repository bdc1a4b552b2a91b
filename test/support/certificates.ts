/** Test certificates: the same generator the simulator's sandbox PKI uses. */
export * from '../../services/sefaz/simulator/test-certificates.js';

/** Version of the API contract (API.md, Versioning: the contract description carries 2.1.0). */
export const API_VERSION = '2.1.0';

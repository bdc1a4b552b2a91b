export { CATALOG, isCatalogued, type ErrorCode } from './catalog.js';
export { DomainError, validationError, type FieldError } from './domain-error.js';

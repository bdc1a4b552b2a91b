import type { Middleware } from 'moleculer';
import { sharedValidator } from '../../lib/validation/validator.js';
import { toValidationError, type FieldHints } from '../../lib/validation/field-errors.js';

/**
 * Validates action params with the project's fastest-validator (Portuguese messages, `decimal`
 * rule) and turns failures into the 400 VALIDATION_ERROR of API.md, with
 * `details.camposDesconhecidos` for unknown keys. Replaces Moleculer's built-in validator so every
 * route refuses the same way. An action may declare `fieldHints` (layout names → motivo).
 */
export const ParamsValidatorMiddleware: Middleware = {
  name: 'ParamsValidator',
  localAction(next: any, action: any) {
    if (!action.params || typeof action.params !== 'object') return next;
    const check = sharedValidator().compile({ $$root: false, ...action.params });
    const hints: FieldHints | undefined = action.fieldHints;
    return async (ctx: any) => {
      const result = await check(ctx.params ?? {});
      if (result !== true) throw toValidationError(result as any[], hints);
      return next(ctx);
    };
  },
} as unknown as Middleware;

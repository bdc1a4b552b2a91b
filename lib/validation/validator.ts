import FastestValidator from 'fastest-validator';
import { MESSAGES_PT } from './messages-pt.js';
import { checkDecimal } from './decimal.js';
import { converterKeys } from './field-errors.js';
import { withPatternMessages } from './pattern-descriptions.js';
import { isUuid } from './uuid.js';
import type { ValidationError } from 'fastest-validator';

// fastest-validator is CommonJS whose typings declare an ES default export; under NodeNext the
// runtime value is the class itself. Resolve it once, typed as the class.
type ValidatorClass = typeof FastestValidator.default;
export type Validator = InstanceType<ValidatorClass>;
const ValidatorCtor: ValidatorClass = ((FastestValidator as any).default ?? FastestValidator) as ValidatorClass;

/**
 * The one fastest-validator set-up of the project: Portuguese messages, the `decimal` rule
 * (`{ type: 'decimal', intDigits: 13, fracDigits: 2, min?: 0, max? }`) behind the precision
 * rules, and `uuid` as lib/validation/uuid.ts defines it. Request schemas are plain data in lib/;
 * the same objects feed the OpenAPI document.
 */
export function createValidator(): Validator {
  const v = new ValidatorCtor({ useNewCustomCheckerFunction: true, messages: MESSAGES_PT });
  v.add('decimal', function decimalRule(this: Validator, { schema, messages }: any, path: string, context: any) {
    const intDigits = Number(schema.intDigits ?? 13);
    const fracDigits = Number(schema.fracDigits ?? 2);
    const min = schema.min !== undefined ? Number(schema.min) : undefined;
    const max = schema.max !== undefined ? Number(schema.max) : undefined;
    context.decimalCheck = checkDecimal;
    const src = `
      const problem = context.decimalCheck(value, { intDigits: ${intDigits}, fracDigits: ${fracDigits} });
      if (problem === 'type') {
        ${this.makeError({ type: 'decimalType', actual: 'value', messages })}
        return value;
      }
      if (problem === 'intDigits') { ${this.makeError({ type: 'decimalIntDigits', expected: String(intDigits), actual: 'value', messages })} }
      if (problem === 'fracDigits') { ${this.makeError({ type: 'decimalFracDigits', expected: String(fracDigits), actual: 'value', messages })} }
      ${min !== undefined ? `if (value < ${min}) { ${this.makeError({ type: 'decimalMin', expected: String(min), actual: 'value', messages })} }` : ''}
      ${max !== undefined ? `if (value > ${max}) { ${this.makeError({ type: 'decimalMax', expected: String(max), actual: 'value', messages })} }` : ''}
      return value;
    `;
    return { source: src };
  });
  // Replaces fastest-validator's uuid so every `type: 'uuid'` checks the project's one pattern (lib/validation/uuid.ts).
  v.add('uuid', function uuidRule(this: Validator, { schema, messages }: any, _path: string, context: any) {
    // A version-bound UUID would be a second notion of UUID: no schema asks for one.
    if (schema.version !== undefined) throw new Error("uuid rule: 'version' is not supported (lib/validation/uuid.ts)");
    context.isUuid = isUuid;
    return {
      source: `
        if (typeof value !== 'string') {
          ${this.makeError({ type: 'string', actual: 'value', messages })}
          return value;
        }
        if (!context.isUuid(value)) { ${this.makeError({ type: 'uuid', actual: 'value', messages })} }
        return value;
      `,
    };
  });
  boundByLength(v);
  guardCompile(v);
  return v;
}

/**
 * fastest-validator goes on checking a value that already broke its rule's `max` (or `length`): a
 * string's `pattern` (and the `email` rule's own) still scans it, an array's items are still each
 * validated. So the work was bounded only by the body limit: the email rule's `^\S+@\S+\.\S+$`
 * spent 6.9 s on a 100 000-character login e-mail and the issuer's e-mail pattern 19.7 s
 * (quadratic), and 900 000 empty NFC-e items took 11 s and 7.2 million errors to refuse. Here the
 * pattern and the items run only on a value within its bound, and the length error stands alone.
 * The built-in rules are wrapped, not copied; a generated source without the expected line fails
 * loudly at compile time.
 */
function boundByLength(v: Validator): void {
  const rules = (v as unknown as { rules: Record<string, (this: Validator, ...args: any[]) => { source: string }> }).rules;
  /** `line(schema, source)`: the line of the built-in source that does the unbounded work, if the rule has it. */
  const guard = (name: 'string' | 'email' | 'array', line: (schema: any, source: string) => string | null, bounded: (line: string, bound: number) => string) => {
    const builtin = rules[name]!;
    v.add(name, function boundedRule(this: Validator, rule: any, path: string, context: any) {
      const out = builtin.call(this, rule, path, context);
      const bound = rule.schema.max ?? rule.schema.length;
      const work = bound == null ? null : line(rule.schema, out.source);
      if (work === null) return out;
      if (!out.source.includes(work)) throw new Error(`${name} rule: "${work}" not found in fastest-validator's source (its version changed?)`);
      return { ...out, source: out.source.replace(work, () => bounded(work, Number(bound))) };
    });
  };
  const patternTest = (pattern: string) => `if (!${pattern}.test(value))`;
  guard('string', (schema) => (schema.pattern == null ? null : patternTest((typeof schema.pattern === 'string' ? new RegExp(schema.pattern, schema.patternFlags) : schema.pattern).toString())),
    (work, bound) => work.replace('if (', `if (len <= ${bound} && `));
  // The email rule's own pattern (basic mode ^\S+@\S+\.\S+$, or the precise one), read from its source.
  guard('email', (_schema, source) => /if \(!\/\^.*\$\/\.test\(value\)\)/.exec(source)?.[0] ?? '(email pattern line)',
    (work, bound) => work.replace('if (', `if (value.length <= ${bound} && `));
  guard('array', (schema) => (schema.items == null ? null : 'for (var i = 0; i < arr.length; i++) {'),
    (_work, bound) => `for (var i = 0; i < (len > ${bound} ? 0 : arr.length); i++) {`);
}

/**
 * Every pattern rule gets a described message (issue 21, item 6), and every compiled checker reports a `toString`/`valueOf` key as an unknown field instead of letting
 * fastest-validator throw while it formats a message (see converterKeys): no input may crash a
 * service. The extra work happens only after the validator has thrown.
 */
function guardCompile(v: Validator): void {
  const compile = v.compile.bind(v);
  v.compile = ((schema: any) => {
    // Pattern refusals in words, never the expression (lib/validation/pattern-descriptions.ts).
    const check = compile(withPatternMessages(schema)) as (value: unknown, opts?: unknown) => true | ValidationError[];
    const guarded = (value: unknown, opts?: unknown) => {
      try {
        return check(value, opts);
      } catch (err) {
        const keys = converterKeys(value);
        if (!keys.length) throw err;
        return keys.map((k): ValidationError => ({ type: 'objectStrict', field: k.objeto, actual: k.campo, expected: '', message: `Campo desconhecido '${k.campo}'.` }));
      }
    };
    return Object.assign(guarded, { async: (check as any).async });
  }) as typeof v.compile;
}

let shared: Validator | undefined;
/** A process-wide validator; compiled checkers are cached by the caller. */
export function sharedValidator(): Validator {
  shared ??= createValidator();
  return shared;
}

// Form errors in plain words, naming the field by its title: "Text to translate is required" rather
// than ajv's "must have required property 'text'". Used as react-jsonschema-form's transformErrors.
import type { RJSFValidationError } from '@rjsf/utils';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function fieldName(error: RJSFValidationError): string {
  if (error.title) return error.title;
  const last = (error.property ?? '').split('.').filter(Boolean).pop();
  return last ? last.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) : 'This field';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  object: 'a group of fields',
  array: 'a list',
  null: 'empty',
};

export function plainMessage(error: RJSFValidationError): string {
  const name = fieldName(error);
  const p = (error.params ?? {}) as Record<string, unknown>;
  const limit = Number(p.limit);
  switch (error.name) {
    case 'required':
      return `${name} is required.`;
    case 'minLength':
      return limit <= 1 ? `${name} must not be empty.` : `${name} needs at least ${plural(limit, 'character')}.`;
    case 'maxLength':
      return `${name} can have at most ${plural(limit, 'character')}.`;
    case 'minimum':
      return `${name} must be ${limit} or more.`;
    case 'maximum':
      return `${name} must be ${limit} or less.`;
    case 'exclusiveMinimum':
      return `${name} must be more than ${limit}.`;
    case 'exclusiveMaximum':
      return `${name} must be less than ${limit}.`;
    case 'multipleOf':
      return `${name} must be a multiple of ${String(p.multipleOf)}.`;
    case 'pattern':
      return `${name} is not in the expected format (it must match ${String(p.pattern)}).`;
    case 'format':
      return `${name} must be a valid ${String(p.format).replace(/-/g, ' ')}.`;
    case 'type': {
      const types = String(p.type).split(',').map((t) => TYPE_WORDS[t] ?? t);
      return `${name} must be ${types.join(' or ')}.`;
    }
    case 'enum':
      return `${name} must be one of: ${((p.allowedValues as unknown[]) ?? []).map(String).join(', ')}.`;
    case 'const':
      return `${name} must be ${JSON.stringify(p.allowedValue)}.`;
    case 'minItems':
      return `${name} needs at least ${plural(limit, 'item')}.`;
    case 'maxItems':
      return `${name} can have at most ${plural(limit, 'item')}.`;
    case 'uniqueItems':
      return `${name} must not repeat an item.`;
    case 'additionalProperties':
      return `${name} has a field it does not take: ${String(p.additionalProperty)}.`;
    default:
      return `${name}: ${error.message ?? 'is not valid'}.`;
  }
}

export function plainErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((error) => {
    const message = plainMessage(error);
    return { ...error, message, stack: message };
  });
}

// The service's validation message beside a field: "must be an http(s) URL" reads as
// "Endpoint URL must be an http(s) URL".
export function withFieldTitle(title: string, message: string): string {
  const text = message.replace(/^[\w.[\]]+:\s*/, '');
  // "URL must be absolute" or "endpoint must be…": the field's title replaces the short subject.
  const verb = /^(?:[\w.()'-]+ ){0,2}?((?:must|should|cannot|can't|may|is|are)\b.*)$/i.exec(text);
  return verb ? `${title} ${verb[1]}` : `${title}: ${text}`;
}

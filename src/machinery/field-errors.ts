// Field errors in Kubernetes' form: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.

export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueRequired'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'InternalError';

const typeText: Record<FieldErrorType, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
};

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indexes and keys: `spec.template.spec.containers[0].name`, `data[a b]`. */
  field: string;
  /** The offending value, when the message shows one. */
  value?: unknown;
  hasValue: boolean;
  detail: string;
}

/** Renders a value the way Kubernetes prints it in a field error. */
export function renderValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** The message without the field: what a Status cause carries. */
export function fieldErrorBody(e: FieldError): string {
  let s = typeText[e.type];
  if (e.hasValue) s += `: ${renderValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function fieldErrorText(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, hasValue: true, detail };
}
export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, hasValue: false, detail };
}
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length ? 'supported values: ' + supported.map((v) => JSON.stringify(v)).join(', ') : '';
  return { type: 'FieldValueNotSupported', field, value, hasValue: true, detail };
}
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, hasValue: false, detail };
}
export function tooLong(field: string, value: unknown, max: number): FieldError {
  // Kubernetes omits the (possibly huge) value from the message.
  return { type: 'FieldValueTooLong', field, value, hasValue: false, detail: `may not be more than ${max} bytes` };
}
export function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, hasValue: true, detail: `must have at most ${max} items` };
}
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, value, hasValue: true, detail: '' };
}
export function notFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, value, hasValue: true, detail: '' };
}
export function immutable(field: string, value: unknown): FieldError {
  return invalid(field, value, 'field is immutable');
}

/** Builds child paths: `child(p, 'spec')`, `index(p, 0)`, `key(p, 'a')`. */
export function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

import { escapePointerToken } from '../../lib/json-pointer';
import type { ProblemInit, ValidationErrorItem } from './problem-init';

// One shape for every `validation_failed` (DESIGN §3: `errors[]` of {pointer, message}), whichever
// layer found it. The services name the field in their error details (`{field: 'payload.type'}`,
// travelling in x-error-details-bin); the gateway's schema errors already carry `errors[]`. This
// is the single place that turns the former into the latter, so no route has to.

/** RFC 6901 pointer of a service field name: dots separate levels (`details.address` → `/details/address`). */
export function pointerOfField(field: string): string {
  if (field === '') return '';
  return field
    .split('.')
    .map((segment) => '/' + escapePointerToken(segment))
    .join('');
}

function isItem(value: unknown): value is ValidationErrorItem {
  return (
    typeof value === 'object' && value !== null &&
    typeof (value as ValidationErrorItem).pointer === 'string' && typeof (value as ValidationErrorItem).message === 'string'
  );
}

/**
 * A `validation_failed` problem with `errors[]`: kept when present; else built from the service's
 * `errors` or `field` detail (which then leave the extension members), else one item for the whole
 * request (pointer ""). Any other problem is returned unchanged.
 */
export function withValidationErrors(init: ProblemInit): ProblemInit {
  if (init.code !== 'validation_failed') return init;
  const { field, errors: detailErrors, ...extras } = init.extras ?? {};
  let errors = init.errors;
  if (!errors || errors.length === 0) {
    if (Array.isArray(detailErrors) && detailErrors.length > 0 && detailErrors.every(isItem)) {
      errors = detailErrors.map((e) => ({ pointer: e.pointer, message: e.message }));
    } else {
      errors = [{ pointer: typeof field === 'string' ? pointerOfField(field) : '', message: init.detail }];
    }
  }
  const rest: ProblemInit = { ...init, errors };
  if (init.extras) rest.extras = extras;
  if (rest.extras && Object.keys(rest.extras).length === 0) delete rest.extras;
  return rest;
}

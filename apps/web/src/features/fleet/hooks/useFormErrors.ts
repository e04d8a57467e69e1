import { useState } from 'react';
import type { z } from 'zod';
import { apiFieldErrors } from '../../../lib/form';
import { validateWith, type FormErrors } from '../utils/validate';

/**
 * The error state of a fleet form (driver, vehicle, trailer): the field errors and the form's line
 * above its buttons. `check` validates a payload with the shared schema before a save (false, and
 * the errors shown, when it fails); `fail` shows what a save answered, API codes mapped to the
 * field they concern.
 */
export function useFormErrors(lang: string, fixErrors: string, fallback: string) {
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const check = (schema: z.ZodType, payload: unknown) => {
    const checked = validateWith(schema, payload, lang);
    if (!checked.ok) {
      setErrors(checked.errors);
      setFormError(fixErrors);
      return false;
    }
    setErrors({});
    return true;
  };
  const fail = (e: unknown, codeToField: Record<string, string>) => {
    setErrors(apiFieldErrors(e, codeToField));
    setFormError(e instanceof Error ? e.message : fallback);
  };
  return { errors, formError, setFormError, check, fail };
}

import type { FormInstance } from 'antd';
import type { VigiaHttpError } from '../../providers/errors';

/**
 * @deprecated Use fieldErrors (providers/errors.ts) with the hooks' errorNotification; kept for
 * the patient record.
 *
 * Puts the server's 400 field messages under their fields; answers the error's Spanish message. */
export function showServerErrors(form: FormInstance, error: unknown, fallback: string): string {
  const err = error as Partial<VigiaHttpError>;
  const fields = Object.entries(err.errors ?? {}).map(([name, msg]) => ({
    name,
    errors: ([] as string[]).concat(msg as string | string[]),
  }));
  if (fields.length) form.setFields(fields);
  return err.message ?? fallback;
}

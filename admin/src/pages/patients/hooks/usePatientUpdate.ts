import { useCallback } from 'react';
import { useInvalidate, type HttpError, type OpenNotificationParams } from '@refinedev/core';
import type { Schemas } from '../../../contract';
import { useApiMutation, type BodyOf } from '../../../providers/calls';
import { serverError } from '../../../providers/notices';

export type PatientUpdated = Schemas['PatientUpdated'];

/** What a save says: the server's notification by default; a fixed text, or nothing; failures notified by default. */
export interface SaveNotices {
  success?: string | false;
  error?: (error?: HttpError) => OpenNotificationParams | false;
}

/**
 * `PUT /patients/:id` (01 §7) on Refine: the server's own notification is shown (red when it says
 * so), the patient's record is read again, and `onSaved` gets the answer. Resolves to whether it saved.
 */
export function usePatientUpdate(patientId: number) {
  const { mutate, mutation } = useApiMutation();
  const invalidate = useInvalidate();
  const save = useCallback(
    (
      body: BodyOf<'/patients/{id}', 'put'>,
      onSaved?: (updated: PatientUpdated) => void,
      notices: SaveNotices = {},
      onFailed?: (error: HttpError) => void,
    ) =>
      new Promise<boolean>((resolve) =>
        mutate(
          {
            method: 'put',
            path: '/patients/{id}',
            params: { id: patientId },
            values: body,
            successNotification: (res) => {
              if (notices.success !== undefined) return notices.success === false ? false : { type: 'success', message: notices.success };
              const note = res?.data?.notification;
              return { type: note?.type === 'error' ? 'error' : 'success', message: note?.message ?? 'Paciente actualizado correctamente' };
            },
            errorNotification: notices.error ?? serverError('No fue posible guardar los cambios'),
          },
          {
            onSuccess: ({ data }) => {
              void invalidate({ resource: 'patients', id: patientId, invalidates: ['detail'] });
              onSaved?.(data);
              resolve(true);
            },
            onError: (error) => {
              onFailed?.(error);
              resolve(false);
            },
          },
        ),
      ),
    [mutate, invalidate, patientId],
  );
  return { save, saving: mutation.isPending };
}

import { useCallback } from 'react';
import { useCustomMutation, useInvalidate } from '@refinedev/core';
import type { Schemas } from '../../../contract';
import { apiUrl, errorNotice } from './data';

export type PatientUpdated = Schemas['PatientUpdated'];

/**
 * `PUT /patients/:id` (01 §7) on Refine: the server's own notification is shown (red when it says
 * so), the patient's record is read again, and `onSaved` gets the answer. Resolves to whether it saved.
 */
export function usePatientUpdate(patientId: number) {
  const { mutate, mutation } = useCustomMutation<PatientUpdated>();
  const invalidate = useInvalidate();
  const save = useCallback(
    (body: Record<string, unknown>, onSaved?: (updated: PatientUpdated) => void) =>
      new Promise<boolean>((resolve) =>
        mutate(
          {
            url: apiUrl(`/patients/${patientId}`),
            method: 'put',
            values: body,
            successNotification: (res) => {
              const note = res?.data?.notification;
              return { type: note?.type === 'error' ? 'error' : 'success', message: note?.message ?? 'Paciente actualizado correctamente' };
            },
            errorNotification: errorNotice('No fue posible guardar los cambios'),
          },
          {
            onSuccess: ({ data }) => {
              void invalidate({ resource: 'patients', id: patientId, invalidates: ['detail'] });
              onSaved?.(data);
              resolve(true);
            },
            onError: () => resolve(false),
          },
        ),
      ),
    [mutate, invalidate, patientId],
  );
  return { save, saving: mutation.isPending };
}

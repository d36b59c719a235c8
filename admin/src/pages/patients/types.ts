import type { Schemas } from '../../contract';

export type Patient = Schemas['Patient'];

/** What the patient page hands to each of its tabs. */
export interface PatientTabProps {
  patient: Patient;
  /** True while this tab is the visible one: tabs reload their data when they become active. */
  active: boolean;
}

import type { Schemas } from '../../contract';
import type { Read } from '../../ui/ReadState';

export type Patient = Schemas['Patient'];

/** What the patient page hands to each of its tabs. */
export interface PatientTabProps {
  patient: Patient;
  /** True while this tab is the visible one: tabs reload their data when they become active. */
  active: boolean;
  /** The read of the patient's record, for cards drawn from it that must say when it failed (P212). */
  patientRead?: Read;
}

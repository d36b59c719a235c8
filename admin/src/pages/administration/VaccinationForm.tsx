/** @deprecated Moved to pages/encounters/VaccinationForm; kept for the patient record's imports. */
export { vaccinationBody, VaccinationForm } from '../encounters/VaccinationForm';

// The same chart as the admin's Signos tab (one component, two apps).
export { default } from '@vigia/contract/ui/MeasurementChart';

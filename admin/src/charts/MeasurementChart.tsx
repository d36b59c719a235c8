// The chart is shared with the patient portal; it lives beside the chart rules.
export { default } from '@vigia/contract/ui/MeasurementChart';
export type { ChartSeries } from '@vigia/contract/ui/MeasurementChart';

// The chart is shared with the patient portal; it lives beside the chart rules.
export { default } from '../../../contract/ui/MeasurementChart';
export type { ChartSeries } from '../../../contract/ui/MeasurementChart';

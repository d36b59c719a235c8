export { default } from '../../../../admin/src/charts/MeasurementChart';

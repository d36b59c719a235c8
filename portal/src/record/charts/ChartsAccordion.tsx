import { CHARTS } from '@vigia/contract/rules/charts';
import { ChartPanel } from './ChartPanel';

/** The six charts of the portal (03 §2), each loaded when expanded. */
export function ChartsAccordion({ patientId, timeZone }: { patientId: number; timeZone: string }) {
  return (
    <section className="card charts" aria-labelledby="card-charts">
      <h2 id="card-charts" className="card__title">
        Mis mediciones
      </h2>
      <div className="accordion">
        {CHARTS.map((spec) => (
          <ChartPanel key={spec.key} spec={spec} patientId={patientId} timeZone={timeZone} />
        ))}
      </div>
    </section>
  );
}

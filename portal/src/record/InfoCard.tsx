import type { Patient } from '../types';
import { RECORD_TEXT, type CardSpec } from './record.data';

export function InfoCard({ spec, patient }: { spec: CardSpec; patient: Patient }) {
  const titleId = `card-${spec.id}`;
  return (
    <section className={`card info-card info-card--${spec.id}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        {spec.title}
      </h2>
      <dl className="fields">
        {spec.fields.map((field) => {
          const value = field.value(patient);
          return (
            <div className="fields__row" key={field.label}>
              <dt>{field.label}</dt>
              <dd>{value ?? <span className="chip chip--incomplete">{RECORD_TEXT.incomplete}</span>}</dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

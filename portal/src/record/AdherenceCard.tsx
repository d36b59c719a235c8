import { ADHERENCE_TEXT, adherenceBand } from '@vigia/contract/rules/adherence';

/** 'Tu cumplimiento' (03 §2): the server's measurements_adherence as a percentage, coloured by band (50 / 70). */
export function AdherenceCard({ percent }: { percent: number | null }) {
  const band = adherenceBand(percent);
  const shown = band === 'none' ? null : Math.round(percent as number);
  return (
    <section className={`card adherence adherence--${band}`} aria-labelledby="card-adherence">
      <h2 id="card-adherence" className="card__title">
        Su cumplimiento
      </h2>
      <div className="adherence__body">
        <div
          className="adherence__gauge"
          role="img"
          aria-label={shown === null ? 'Sin datos de cumplimiento' : `Cumplimiento del ${shown} %`}
          style={{ ['--pct' as string]: `${shown ?? 0}` }}
        >
          <span className="adherence__value">{shown === null ? '—' : `${shown} %`}</span>
        </div>
        <p className="adherence__text">{ADHERENCE_TEXT[band]}</p>
      </div>
    </section>
  );
}

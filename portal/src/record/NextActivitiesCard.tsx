import type { Patient } from '../types';
import { nextActivities } from './latest.data';

/** 'Mis próximas actividades' (issue 50): the signs to take and the medicines in course, from the record. */
export function NextActivitiesCard({ patient }: { patient: Patient }) {
  const activities = nextActivities(patient, new Date());
  return (
    <section className="card next" aria-labelledby="card-next">
      <h2 id="card-next" className="card__title">
        Mis próximas actividades
      </h2>
      {activities.length === 0 ? (
        <p className="notice">No tiene actividades programadas.</p>
      ) : (
        <ul className="next__list">
          {activities.map((a) => (
            <li key={a.key} className="next__item">
              <span className="next__what">{a.what}</span>
              <span className="next__when">{a.when}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

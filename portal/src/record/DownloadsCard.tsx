import { useState } from 'react';
import { openDownload } from '@vigia/contract/ui/open-download';
import { apiRequest } from '../api';
import { readSession } from '../session';
import { DOWNLOAD_PERIODS, downloadRange } from './downloads.data';
import { saveFile } from './save-file';

type Kind = 'csv' | 'pdf' | 'pdf-open';

/**
 * 'Descargar CSV' and 'Descargar PDF' (03 §2): each asks the API for a short-lived link (D4). The
 * PDF is saved as a file with its name (a phone kept nothing of a PDF opened in a tab, issue 50);
 * 'Abrir PDF' still opens it in a new tab, for a look without saving.
 */
export function DownloadsCard({ patientId }: { patientId: number }) {
  const [days, setDays] = useState<number>(DOWNLOAD_PERIODS[0].days);
  const [busy, setBusy] = useState<Kind | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(kind: Kind) {
    const session = readSession();
    if (!session) return;
    setError(null);
    setBusy(kind);
    const { start_at, end_at } = downloadRange(new Date(), days);
    const query = new URLSearchParams({ start_at, end_at });
    const path =
      kind === 'csv'
        ? `/patients/${patientId}/measurements?${new URLSearchParams({ format: 'csv', order: 'desc', start_at, end_at })}`
        : `/patients/${patientId}/show_pdf?${query}`;
    const fetchLink = () => apiRequest<{ url: string }>('GET', path, { token: session.token });
    const onError = () => setError('No fue posible generar el archivo. Intente nuevamente.');
    if (kind === 'pdf') {
      await fetchLink()
        .then(({ url }) => saveFile(url, 'signos-vitales.pdf'))
        .catch(onError);
    } else {
      await openDownload(fetchLink, onError, kind === 'csv' ? 'file' : 'tab');
    }
    setBusy(null);
  }

  return (
    <section className="card downloads" aria-labelledby="card-downloads">
      <h2 id="card-downloads" className="card__title">
        Descargar mis datos
      </h2>
      <div className="field">
        <label htmlFor="download-period">Periodo</label>
        <select id="download-period" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {DOWNLOAD_PERIODS.map((p) => (
            <option key={p.days} value={p.days}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="downloads__actions">
        <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => download('csv')}>
          {busy === 'csv' ? 'Generando…' : 'Descargar CSV'}
        </button>
        <button type="button" className="button button--primary" disabled={busy !== null} onClick={() => download('pdf')}>
          {busy === 'pdf' ? 'Generando…' : 'Descargar PDF'}
        </button>
        <button type="button" className="button button--ghost" disabled={busy !== null} onClick={() => download('pdf-open')}>
          {busy === 'pdf-open' ? 'Generando…' : 'Abrir PDF'}
        </button>
      </div>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

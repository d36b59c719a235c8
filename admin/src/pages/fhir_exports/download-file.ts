import { apiCall } from '../../providers/calls';
import { fromResponse } from '../../providers/errors';
import { http } from '../../providers/http';

/**
 * Downloads one NDJSON file of an export and saves it under its own name. The file is served only
 * with the staff token (requiresAccessToken), so a plain link cannot fetch it: the data provider's
 * client sends the token, the answer arrives as a Blob, and a link to that Blob is clicked.
 * Rejects with the API's Spanish message (a 404 once the files are gone).
 */
export async function downloadExportFile(id: number, file: string): Promise<void> {
  const { url } = apiCall('get', '/fhir_exports/{id}/files/{file}', { id, file });
  const response = await http.get<Blob>(url, {
    responseType: 'blob',
    headers: { Accept: 'application/fhir+ndjson, application/json' },
    // An error's body is a Blob too: it is read below, so the server's message is not lost.
    validateStatus: () => true,
  });
  if (response.status !== 200) {
    let body: unknown;
    try {
      body = JSON.parse(await response.data.text());
    } catch {
      body = undefined;
    }
    throw fromResponse(response.status, body);
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(response.data);
  link.download = file;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the Blob to the download; the URL is released after it has been read.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

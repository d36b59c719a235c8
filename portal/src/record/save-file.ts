import { fileNameOf } from './downloads.data';

/**
 * Saves a signed download link (D4) as a file with its name (issue 50): a phone opened the PDF in a
 * tab of its own, where it was not kept. The file is fetched and handed to an `<a download>`, so the
 * browser saves it under the name the API gives (its `Content-Disposition`) whatever it would do
 * with the type.
 */
export async function saveFile(url: string, fallbackName: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const name = fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName;
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; a minute is ample for a slow phone.
  window.setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

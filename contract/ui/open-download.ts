/**
 * Opens a signed download link (D4), for the admin's Reportes and the portal's downloads.
 *
 * - `'tab'` (a PDF shown inline): the tab is opened on the click itself, before the call, so the
 *   browser does not treat it as a pop-up; it is pointed at the link when it arrives, or closed if
 *   the call fails.
 * - `'file'` (a CSV served as an attachment): no tab at all. An attachment never replaces the page,
 *   so the link is followed from the page itself; a tab opened for it stayed empty (issue 19).
 */
export async function openDownload(
  fetchLink: () => Promise<{ url: string }>,
  onError: () => void,
  kind: 'tab' | 'file' = 'tab',
): Promise<void> {
  const tab = kind === 'tab' ? window.open('', '_blank') : null;
  try {
    const { url } = await fetchLink();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else if (kind === 'file') {
      const link = document.createElement('a');
      link.href = url;
      link.download = '';
      link.rel = 'noopener';
      document.body.appendChild(link);
      link.click();
      link.remove();
    } else {
      window.location.assign(url);
    }
  } catch {
    tab?.close();
    onError();
  }
}

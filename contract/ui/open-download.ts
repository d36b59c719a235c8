/**
 * Opens a signed download link (D4) in a new tab, for the admin's Reportes and the portal's
 * downloads. The tab is opened on the click itself, before the call, so the browser does not treat
 * it as a pop-up; it is pointed at the link when it arrives, or closed if the call fails.
 */
export async function openDownload(fetchLink: () => Promise<{ url: string }>, onError: () => void): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await fetchLink();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.assign(url);
    }
  } catch {
    tab?.close();
    onError();
  }
}

import { useEffect } from 'react';

/** Browser tab title: '<page> · Vigía'. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Vigía` : 'Vigía · Monitoreo remoto de pacientes';
  }, [title]);
}

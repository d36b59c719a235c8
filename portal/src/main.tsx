import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The installable portal's worker (issue 50), from the build only. Its scope '/portal' takes in
// /portal_patient and the files under /portal/ (the API allows it with Service-Worker-Allowed).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL.replace(/\/$/, '') })
      .catch(() => undefined);
  });
}

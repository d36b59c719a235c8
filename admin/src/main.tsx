import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { unstableSetRender } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'antd/dist/reset.css';
// antd's styles for the app's theme, made at build time (antd-styles.ts): antd skips building them here.
import 'virtual:antd-styles.css';
import App from './App';
import { preloadRoute } from './route-preload';
import './styles.css';

preloadRoute(window.location.pathname, window.location.search);

dayjs.locale('es');

// antd 5 renders some pieces (button waves, static dialogs) outside the tree with the React 18
// API; this hands it React 19's createRoot instead.
unstableSetRender((node, container) => {
  const host = container as Element & { _vigiaRoot?: Root };
  host._vigiaRoot ??= createRoot(container);
  const root = host._vigiaRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete host._vigiaRoot;
  };
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

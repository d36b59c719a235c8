import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const ClientPromptsPage = lazy(() => import('./ClientPromptsPage'));
const TagPromptsPage = lazy(() => import('./TagPromptsPage'));

/** AI instructions of the client and of a tag (01 §2, 02 §2.11, 03 §2). */
export const promptRoutes: ReactElement[] = [
  <Route key="client_prompts" path="/client_prompts" element={<ClientPromptsPage />} />,
  <Route key="tag_prompts" path="/tags/:id/prompts" element={<TagPromptsPage />} />,
];

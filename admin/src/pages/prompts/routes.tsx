import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const TagPromptsPage = lazy(() => import('./TagPromptsPage'));

/** A tag's AI instructions (02 §2.11, 03 §2). The shared panel here also serves /client_prompts and the patient record. */
export const promptRoutes: ReactElement[] = [<Route key="tag_prompts" path="/tags/:id/prompts" element={<TagPromptsPage />} />];

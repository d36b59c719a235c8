import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const ClientPromptsPage = lazy(() => import('./ClientPromptsPage'));

/** 'Instrucciones IA' (01 §2, 02 §2.11): the `client_prompts` screen, the client's own AI instructions. */
export const clientPromptRoutes: ReactElement[] = [<Route key="/client_prompts" path="/client_prompts" element={<ClientPromptsPage />} />];

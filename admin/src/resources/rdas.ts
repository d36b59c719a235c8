import { createElement, lazy } from 'react';
import type { ResourceProps } from '@refinedev/core';
import { CloudServerOutlined, FileDoneOutlined } from '@ant-design/icons';
import type { MenuMeta } from './registry';

const RdasPage = lazy(() => import('../pages/rdas/RdasPage'));
const RdaDetailPage = lazy(() => import('../pages/rdas/RdaDetailPage'));
const IhceSettingsPage = lazy(() => import('../pages/rdas/IhceSettingsPage'));

/** The URL segment, the Refine resource and the API path are the same word (/api/v1/rdas). */
export const RDAS_PATH = '/rdas';
/** Integraciones → IHCE (RDA): the settings of /api/v1/clients/{id}/ihce. */
export const IHCE_PATH = '/ihce';

/**
 * RDA enviados, /rdas (issue 51): the organisation's RDA and their sending status, with each one's
 * detail (/rdas/show/:id). Administrators and clinicians read them (listRdas: clinical.write), so
 * they see the entry; 'Reenviar' on the detail is administrators' only.
 */
export function rdasResource(parent: string): ResourceProps {
  const meta: MenuMeta = {
    label: 'RDA enviados',
    icon: createElement(FileDoneOutlined),
    parent,
    requires: 'clinical.write',
    screens: [
      { path: RDAS_PATH, element: createElement(RdasPage) },
      { path: `${RDAS_PATH}/show/:id`, element: createElement(RdaDetailPage) },
    ],
  };
  return { name: 'rdas', list: RDAS_PATH, show: `${RDAS_PATH}/show/:id`, meta };
}

/**
 * IHCE (RDA), /ihce (issue 51): the connection with the Ministry's platform, reached from the
 * 'Integraciones' card; only `admin` sees the entry, as only `admin` gets an answer from getClientIhce.
 */
export function ihceResource(parent: string): ResourceProps {
  const meta: MenuMeta = {
    label: 'IHCE (RDA)',
    icon: createElement(CloudServerOutlined),
    parent,
    requires: 'administer',
    screens: [{ path: IHCE_PATH, element: createElement(IhceSettingsPage) }],
  };
  return { name: 'ihce', list: IHCE_PATH, meta };
}

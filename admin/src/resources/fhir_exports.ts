import { createElement, lazy } from 'react';
import type { ResourceProps } from '@refinedev/core';
import { CloudDownloadOutlined } from '@ant-design/icons';
import type { MenuMeta } from './registry';

const FhirExportsPage = lazy(() => import('../pages/fhir_exports/FhirExportsPage'));

/** The URL segment, the Refine resource and the API path are the same word (/api/v1/fhir_exports). */
export const FHIR_EXPORTS_PATH = '/fhir_exports';

/**
 * Exportaciones FHIR, /fhir_exports (issue 37): the organisation's Bulk Data exports, started and
 * downloaded by an administrator; a hand-built list in the menu group `parent`. Only `admin` sees the
 * entry, as only `admin` gets an answer from listFhirExports; the page says so to anyone else.
 */
export function fhirExportsResource(parent: string): ResourceProps {
  const meta: MenuMeta = {
    label: 'Exportaciones FHIR',
    icon: createElement(CloudDownloadOutlined),
    parent,
    requires: 'administer',
    screens: [{ path: FHIR_EXPORTS_PATH, element: createElement(FhirExportsPage) }],
  };
  return { name: 'fhir_exports', list: FHIR_EXPORTS_PATH, meta };
}

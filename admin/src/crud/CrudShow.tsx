import { useMemo } from 'react';
import { Navigate, useParams } from 'react-router';
import { Descriptions } from 'antd';
import { Show } from '@refinedev/antd';
import { useShow, type BaseRecord, type HttpError } from '@refinedev/core';
import { contractDoc } from './contract-doc';
import { serverErrorNotification } from './notifications';
import { RecordPageTitle } from './PageHeader';
import { renderCell } from './renderers';
import { objectSchema } from './schema-rules';
import type { AnyResource } from './types';

type Row = BaseRecord & Record<string, unknown>;

/** Read-only view of one record, showing the declared columns. */
export function CrudShow({ resource }: { resource: AnyResource }) {
  const { id } = useParams();
  const recordSchema = useMemo(() => objectSchema(contractDoc, resource.schemas.record), [resource]);
  const { query, result } = useShow<Row, HttpError>({
    resource: resource.name,
    id,
    errorNotification: serverErrorNotification,
  });

  // A record that does not exist (or belongs to another client, D14) leads to the 404 page (03 §8).
  if (query.error?.statusCode === 404) return <Navigate to="/404notfound" replace />;

  return (
    <Show
      resource={resource.name}
      recordItemId={id}
      title={<RecordPageTitle resource={resource} title={resource.labels.showTitle ?? resource.labels.singular} />}
      goBack={false}
      breadcrumb={false}
      isLoading={query.isLoading}
      canEdit={resource.actions?.edit ?? false}
      canDelete={resource.actions?.delete ?? false}
      headerButtons={() => null}
    >
      {result && (
        <Descriptions column={1} bordered size="middle">
          {resource.columns.map((column) => (
            <Descriptions.Item key={column.key ?? column.field} label={column.label}>
              {renderCell(column, result, recordSchema)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Show>
  );
}

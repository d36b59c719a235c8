import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Alert, Card, DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { PageHeader } from '../../crud/PageHeader';
import { contractDoc } from '../../crud/contract-doc';
import { enumOptions, objectSchema } from '../../crud/schema-rules';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession } from '../../session';
import { displayName } from '@vigia/contract/rules/names';
import { AuditTable, type AuditQuery } from '../../components/AuditTable';
import type { Schemas } from '../../contract';
import '../../components/audit.css';

type User = Schemas['User'];

/** 'Auditoría' (issue 8): who changed what and when in this institution; administrators only. */
export default function AuditPage() {
  usePageTitle('Auditoría');
  const isAdmin = readSession()?.role_name === 'admin';
  const [query, setQuery] = useState<AuditQuery>({});
  const { result } = useList<User>({
    resource: 'users',
    sorters: [{ field: 'last_name', order: 'asc' }],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    queryOptions: { enabled: isAdmin },
    errorNotification: false,
  });
  const users = isAdmin ? result.data : [];

  const resources = enumOptions(objectSchema(contractDoc, 'AuditResource')).sort((a, b) => a.label.localeCompare(b.label, 'es'));
  const setRange = (range: [Dayjs | null, Dayjs | null] | null) =>
    setQuery((q) => ({ ...q, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') }));

  return (
    <PageHeader title="Auditoría">
      {!isAdmin ? (
        <Alert type="info" showIcon message="Solo un administrador puede consultar la auditoría." />
      ) : (
        <Card>
          <Form layout="inline" className="audit-filters">
            <Form.Item label="Usuario" htmlFor="audit-user">
              <Select
                id="audit-user"
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="Todos"
                style={{ minWidth: 220 }}
                options={users.map((u) => ({ value: u.id, label: displayName(`${u.first_name} ${u.last_name}`) }))}
                onChange={(v?: number) => setQuery((q) => ({ ...q, user_id: v }))}
              />
            </Form.Item>
            <Form.Item label="Recurso" htmlFor="audit-resource">
              <Select
                id="audit-resource"
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="Todos"
                style={{ minWidth: 200 }}
                options={resources}
                onChange={(v?: string) => setQuery((q) => ({ ...q, resource: v }))}
              />
            </Form.Item>
            <Form.Item label="Fechas" htmlFor="audit-dates">
              <DatePicker.RangePicker
                id={{ start: 'audit-dates' }}
                format="DD/MM/YYYY"
                placeholder={['Desde', 'Hasta']}
                allowEmpty={[true, true]}
                onChange={(r) => setRange(r as [Dayjs | null, Dayjs | null] | null)}
              />
            </Form.Item>
          </Form>
          <AuditTable path="/audit_events" query={query} showPatient />
        </Card>
      )}
    </PageHeader>
  );
}

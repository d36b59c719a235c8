import { useState } from 'react';
import { useList, type HttpError } from '@refinedev/core';
import { Alert, Button, Card, Empty, Form, Input, Modal, Spin, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import {
  CONDITION_MESSAGES,
  CONDITION_NOTES_MAX,
  CONDITION_SEARCH_DEBOUNCE_MS,
  conditionDialogMode,
  conditionDialogTitle,
  shouldSearchConditions,
  type ConditionDialogMode,
} from '@vigia/contract/rules/conditions';
import { useApiMutation, useApiQuery, type BodyOf } from '../../../providers/calls';
import { serverError } from '../../../providers/notices';
import { useInvalidatePaths } from '../../../providers/queries';
import { useDebounced } from '../../../hooks/useDebounced';
import { recordWriteState } from '../../../components/record-access';
import type { PatientTabProps } from '../types';
import './record-tabs.css';
import { SectionTitle } from '../../../components/SectionTitle';
import { ReadFailedAlert, useReadState } from '../../../ui/ReadState';

type ConditionType = Schemas['ConditionType'];
type PatientCondition = Schemas['PatientCondition'];

/** A card on screen: a catalogue type and, when the patient has one, its record. */
interface Item {
  type: ConditionType;
  record: PatientCondition | null;
}

function ConditionCard({ item, onOpen, disabled }: { item: Item; onOpen: (item: Item) => void; disabled: boolean }) {
  const yes = !!item.record?.active;
  return (
    <Card
      size="small"
      hoverable={!disabled}
      className={`condition-card${yes ? ' is-yes' : ''}`}
      role="button"
      // The visible text in the same order (the spaces below keep its words apart), so the spoken name
      // contains what is read on screen (WCAG 2.5.3, axe label-content-name-mismatch).
      aria-label={[`${item.type.name}: ${yes ? 'SI' : 'NO'}`, item.type.icd10 && `CIE-10 ${item.type.icd10}`, yes && item.record?.notes]
        .filter(Boolean)
        .join('. ')}
      onClick={() => !disabled && onOpen(item)}
    >
      <div className="condition-card-top">
        <span className="condition-card-name">{item.type.name}</span> <Tag color={yes ? 'red' : 'default'}>{yes ? 'SI' : 'NO'}</Tag>
      </div>{' '}
      {item.type.icd10 && <Typography.Text type="secondary">CIE-10 {item.type.icd10}</Typography.Text>}{' '}
      {yes && item.record?.notes && <div className="condition-card-notes">{item.record.notes}</div>}
    </Card>
  );
}

/** Tab 'Antecedentes' of the patient page (01 §2, §4, §5, §8). */
type ConditionWrite =
  | { create: BodyOf<'/patients/{id}/conditions', 'post'> }
  | { update: number; values: BodyOf<'/patients/{id}/conditions/{conditionId}', 'put'> };

export default function ConditionsTab({ patient, active }: PatientTabProps) {
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<{ item: Item; mode: ConditionDialogMode } | null>(null);
  const [notes, setNotes] = useState('');
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const path = `/patients/${patient.id}/conditions`;
  const loadError = serverError('No fue posible cargar los antecedentes');

  // Read while the tab is the visible one; showing it again reads afresh (01 §2).
  const recordsRead = useApiQuery('/patients/{id}/conditions', {
    params: { id: patient.id },
    queryOptions: { enabled: active },
    errorNotification: loadError,
  });
  const priorityRead = useList<ConditionType>({
    resource: 'condition_types',
    filters: [{ field: 'priority', operator: 'eq', value: 1 }],
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: active },
    errorNotification: loadError,
  });
  const records = recordsRead.query.data?.data ?? [];
  const priorityTypes = priorityRead.result.data;
  const loading = recordsRead.query.isFetching || priorityRead.query.isFetching;
  // A failed read is never 'No refiere antecedentes…' (P212): the cards need both the records and the catalogue.
  const readStatus = useReadState([recordsRead.query, priorityRead.query], !records.some((r) => r.active), 'los antecedentes');
  // 'No refiere…' and 'Sin otros…' only from an answer just read: not under data that could not be refreshed.
  const fresh = readStatus.phase === 'ready' || readStatus.phase === 'empty';

  // 01 §5: search from 3 characters, 300 ms after the last key, only non-priority types kept.
  const settled = useDebounced(query, CONDITION_SEARCH_DEBOUNCE_MS);
  const searchable = shouldSearchConditions(query) && shouldSearchConditions(settled);
  const searchRead = useList<ConditionType>({
    resource: 'condition_types',
    filters: [{ field: 'q', operator: 'eq', value: settled.trim() }],
    pagination: { currentPage: 1, pageSize: 20 },
    queryOptions: { enabled: searchable },
    errorNotification: () => ({ type: 'error', message: CONDITION_MESSAGES.search }),
  });
  const searching = searchable && searchRead.query.isFetching;
  const results = searchable ? searchRead.result.data.filter((t) => t.priority === 0) : [];

  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();

  const byType = new Map(records.map((r) => [r.condition_type.id, r]));
  const priorityItems: Item[] = priorityTypes.map((type) => ({ type, record: byType.get(type.id) ?? null }));
  const otherItems: Item[] = records
    .filter((r) => r.condition_type.priority === 0 && r.active)
    .map((r) => ({ type: r.condition_type, record: r }));
  const resultItems: Item[] = results
    .filter((t) => !byType.get(t.id)?.active)
    .map((type) => ({ type, record: byType.get(type.id) ?? null }));
  const anyPriority = priorityItems.some((i) => i.record?.active);

  const open = (item: Item) => {
    setNotes(item.record?.active ? (item.record.notes ?? '') : '');
    setDialog({
      item,
      mode: conditionDialogMode({ active: !!item.record?.active, priority: item.type.priority, hasRecord: !!item.record }),
    });
  };

  /** A write of this tab: its message on success, `failure` (with the server's text below) otherwise. */
  const write = (change: ConditionWrite, success: string, failure: string, onDone?: () => void) => {
    const notices = {
      successNotification: { type: 'success', message: success } as const,
      errorNotification: (error?: HttpError) => ({ type: 'error', message: failure, description: error?.message ?? '' }) as const,
    };
    const callbacks = {
      onSuccess: () => {
        onDone?.();
        setDialog(null);
        void refresh(path);
      },
    };
    if ('create' in change)
      mutate(
        { method: 'post', path: '/patients/{id}/conditions', params: { id: patient.id }, values: change.create, ...notices },
        callbacks,
      );
    else
      mutate(
        {
          method: 'put',
          path: '/patients/{id}/conditions/{conditionId}',
          params: { id: patient.id, conditionId: change.update },
          values: change.values,
          ...notices,
        },
        callbacks,
      );
  };

  const save = () => {
    if (!dialog) return;
    const { item, mode } = dialog;
    if (mode === 'edit') {
      write(
        { update: item.record!.id, values: { notes: notes.trim() || null, active: true } },
        'Antecedente actualizado',
        CONDITION_MESSAGES.save,
      );
    } else {
      write(
        { create: { condition_type_id: item.type.id, active: true, notes: notes.trim() || null } },
        'Antecedente agregado',
        CONDITION_MESSAGES.create,
        () => setQuery(''),
      );
    }
  };

  const remove = () => {
    if (!dialog?.item.record) return;
    write({ update: dialog.item.record.id, values: { active: false } }, 'Antecedente eliminado', CONDITION_MESSAGES.delete);
  };

  return (
    <Spin spinning={loading}>
      <div className="record-tab">
        {!canWrite && <Alert type="info" showIcon message={reason} style={{ marginBottom: 12 }} />}
        <ReadFailedAlert status={readStatus} />
        {readStatus.phase !== 'failed' && (
          <>
            <SectionTitle className="condition-section-title">Antecedentes Prioritarios</SectionTitle>
            {fresh && !anyPriority && <Typography.Paragraph type="secondary">{CONDITION_MESSAGES.noPriority}</Typography.Paragraph>}
            <div className="conditions-grid">
              {priorityItems.map((item) => (
                <ConditionCard key={item.type.id} item={item} onOpen={open} disabled={!canWrite} />
              ))}
            </div>

            <SectionTitle className="condition-section-title">Otros Antecedentes</SectionTitle>
            <Input
              allowClear
              className="conditions-search"
              prefix={<SearchOutlined />}
              placeholder="Buscar antecedentes"
              aria-label="Buscar antecedentes"
              value={query}
              disabled={!canWrite}
              onChange={(e) => setQuery(e.target.value)}
              suffix={searching ? <Spin size="small" /> : undefined}
            />
            {resultItems.length > 0 && (
              <div className="conditions-grid">
                {resultItems.map((item) => (
                  <ConditionCard key={`r${item.type.id}`} item={item} onOpen={open} disabled={!canWrite} />
                ))}
              </div>
            )}
            {shouldSearchConditions(query) && !searching && resultItems.length === 0 && (
              <Typography.Paragraph type="secondary">No se encontraron antecedentes con «{query.trim()}».</Typography.Paragraph>
            )}
            {otherItems.length > 0 ? (
              <div className="conditions-grid">
                {otherItems.map((item) => (
                  <ConditionCard key={item.type.id} item={item} onOpen={open} disabled={!canWrite} />
                ))}
              </div>
            ) : (
              // Only when the tab shows no other condition at all: not right under a search's results.
              fresh &&
              !loading &&
              resultItems.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin otros antecedentes registrados" />
            )}
          </>
        )}
      </div>
      <Modal
        open={!!dialog}
        title={dialog ? conditionDialogTitle(dialog.mode, dialog.item.type.name) : ''}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        footer={[
          ...(dialog?.mode === 'edit'
            ? [
                <Button key="delete" danger loading={saving} onClick={remove}>
                  Eliminar Antecedente
                </Button>,
              ]
            : []),
          <Button key="cancel" onClick={() => setDialog(null)}>
            Cancelar
          </Button>,
          <Button key="save" type="primary" loading={saving} onClick={save}>
            Guardar
          </Button>,
        ]}
      >
        <Form layout="vertical">
          <Form.Item label="Notas" htmlFor="condition-notes">
            <Input.TextArea
              id="condition-notes"
              rows={4}
              maxLength={CONDITION_NOTES_MAX}
              showCount
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Spin>
  );
}

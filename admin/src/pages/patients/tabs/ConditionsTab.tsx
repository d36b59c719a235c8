import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Card, Empty, Form, Input, Modal, Spin, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { notify } from '../../../providers/notification';
import {
  CONDITION_MESSAGES,
  CONDITION_NOTES_MAX,
  CONDITION_SEARCH_DEBOUNCE_MS,
  conditionDialogMode,
  conditionDialogTitle,
  shouldSearchConditions,
  type ConditionDialogMode,
} from '@vigia/contract/rules/conditions';
import { errorMessage, getJson, getList, postJson, putJson } from '../../prompts/record-api';
import { recordWriteState } from '../../prompts/record-access';
import type { PatientTabProps } from '../types';
import './record-tabs.css';

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
      aria-label={`${item.type.name}: ${yes ? 'SI' : 'NO'}`}
      onClick={() => !disabled && onOpen(item)}
    >
      <div className="condition-card-top">
        <span className="condition-card-name">{item.type.name}</span>
        <Tag color={yes ? 'red' : 'default'}>{yes ? 'SI' : 'NO'}</Tag>
      </div>
      {item.type.icd10 && <Typography.Text type="secondary">CIE-10 {item.type.icd10}</Typography.Text>}
      {yes && item.record?.notes && <div className="condition-card-notes">{item.record.notes}</div>}
    </Card>
  );
}

/** Tab 'Antecedentes' of the patient page (01 §2, §4, §5, §8). */
export default function ConditionsTab({ patient, active }: PatientTabProps) {
  const [records, setRecords] = useState<PatientCondition[]>([]);
  const [priorityTypes, setPriorityTypes] = useState<ConditionType[]>([]);
  const [loading, setLoading] = useState(false);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<ConditionType[]>([]);
  const [searching, setSearching] = useState(false);
  const [dialog, setDialog] = useState<{ item: Item; mode: ConditionDialogMode } | null>(null);
  const [notes, setNotes] = useState('');
  const [saving, setSaving] = useState(false);
  const searchSeq = useRef(0);
  const { canWrite } = recordWriteState(patient, 'clinical.write');
  const path = `/patients/${patient.id}/conditions`;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [list, priority] = await Promise.all([
        getJson<PatientCondition[]>(path),
        getList<ConditionType>('/condition_types', { priority: 1, _start: 0, _end: 100 }),
      ]);
      setRecords(list);
      setPriorityTypes(priority.rows);
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible cargar los antecedentes'));
    } finally {
      setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    if (active) void load();
  }, [active, load]);

  // 01 §5: search from 3 characters, 300 ms after the last key, only non-priority types kept.
  useEffect(() => {
    if (!shouldSearchConditions(query)) {
      setResults([]);
      return;
    }
    const seq = ++searchSeq.current;
    const timer = setTimeout(async () => {
      setSearching(true);
      try {
        const { rows } = await getList<ConditionType>('/condition_types', { q: query.trim(), _start: 0, _end: 20 });
        if (seq === searchSeq.current) setResults(rows.filter((t) => t.priority === 0));
      } catch {
        if (seq === searchSeq.current) notify.error(CONDITION_MESSAGES.search);
      } finally {
        if (seq === searchSeq.current) setSearching(false);
      }
    }, CONDITION_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

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

  const afterChange = async (message: string) => {
    notify.success(message);
    setDialog(null);
    await load();
  };

  const save = async () => {
    if (!dialog) return;
    setSaving(true);
    const { item, mode } = dialog;
    try {
      if (mode === 'edit') {
        await putJson(`${path}/${item.record!.id}`, { notes: notes.trim() || null, active: true });
        await afterChange('Antecedente actualizado');
      } else {
        await postJson(path, { condition_type_id: item.type.id, active: true, notes: notes.trim() || null });
        setQuery('');
        await afterChange('Antecedente agregado');
      }
    } catch (error) {
      notify.error(mode === 'edit' ? CONDITION_MESSAGES.save : CONDITION_MESSAGES.create, errorMessage(error, ''));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!dialog?.item.record) return;
    setSaving(true);
    try {
      await putJson(`${path}/${dialog.item.record.id}`, { active: false });
      await afterChange('Antecedente eliminado');
    } catch (error) {
      notify.error(CONDITION_MESSAGES.delete, errorMessage(error, ''));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Spin spinning={loading}>
      <div className="record-tab">
        <Typography.Title level={5} className="condition-section-title">
          Antecedentes Prioritarios
        </Typography.Title>
        {!anyPriority && <Typography.Paragraph type="secondary">{CONDITION_MESSAGES.noPriority}</Typography.Paragraph>}
        <div className="conditions-grid">
          {priorityItems.map((item) => (
            <ConditionCard key={item.type.id} item={item} onOpen={open} disabled={!canWrite} />
          ))}
        </div>

        <Typography.Title level={5} className="condition-section-title">
          Otros Antecedentes
        </Typography.Title>
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
          !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin otros antecedentes registrados" />
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

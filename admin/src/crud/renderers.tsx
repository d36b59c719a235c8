import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { contractDoc } from './contract-doc';
import { resolveSchema, type JsonSchema } from '@vigia/contract/rules/schema';
import { enumLabel } from './schema-rules';
import type { ColumnDeclaration, StatusValue, Tone } from './types';
import { ColorChip } from './ColorChip';

export { ColorChip };

const EMPTY_TEXT = '—';

type AnyRecord = Record<string, unknown>;

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

function cellValue<R extends AnyRecord>(column: ColumnDeclaration<R>, record: R): unknown {
  return column.value ? column.value(record) : record[column.field];
}

/** First `length` characters followed by '...' (02 §2.11 'Instrucción'). */
function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

export function StatusChip({ value }: { value: StatusValue }) {
  return (
    <Tag className="vigia-chip" color={value.tone === 'default' ? undefined : (value.tone as Exclude<Tone, 'default'>)}>
      {value.text}
    </Tag>
  );
}

function isStatusValue(value: unknown): value is StatusValue {
  return typeof value === 'object' && value !== null && 'text' in value && 'tone' in value;
}

/** Renders one cell of a declared column. */
export function renderCell<R extends AnyRecord>(column: ColumnDeclaration<R>, record: R, recordSchema: JsonSchema): ReactNode {
  const value = cellValue(column, record);
  const render = column.render ?? 'text';

  if (typeof render === 'function') return render(value, record);

  if (isBlank(value)) {
    return <Typography.Text type="secondary">{column.empty ?? EMPTY_TEXT}</Typography.Text>;
  }

  if (render.startsWith('truncate:')) {
    const length = Number(render.slice('truncate:'.length));
    const text = String(value);
    return <Typography.Text title={text.length > length ? text : undefined}>{truncate(text, length)}</Typography.Text>;
  }

  switch (render) {
    case 'chip-color':
      return <ColorChip color={record[column.colorField ?? 'color']}>{String(value)}</ColorChip>;
    case 'status':
      return isStatusValue(value) ? <StatusChip value={value} /> : <Tag>{String(value)}</Tag>;
    case 'date':
      return dayjs(String(value)).format('DD/MM/YYYY');
    case 'datetime':
      return dayjs(String(value)).format('DD/MM/YYYY HH:mm');
    case 'boolean':
      return value ? 'Sí' : 'No';
    case 'enum': {
      const property = recordSchema.properties?.[column.field];
      const schema = property ? resolveSchema(contractDoc, property).schema : {};
      return enumLabel(schema, value) ?? EMPTY_TEXT;
    }
    default:
      return String(value);
  }
}

import { Suspense, useMemo } from 'react';
import { Form, Skeleton } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { contractDoc } from './contract-doc';
import { ColorChip } from './renderers';
import { describeField, objectSchema, toFormRules, toRequestBody, type FieldSpec, type WidgetKind } from './schema-rules';
import type { AnyResource, FormFieldDeclaration } from './types';
import { FieldInput } from './widgets';

export type FormField = {
  spec: FieldSpec;
  label: string;
  widget: WidgetKind;
  placeholder?: string;
  help?: string;
  action: 'create' | 'edit';
} & Pick<FormFieldDeclaration<string>, 'check' | 'dependencies' | 'initial' | 'remote' | 'enabledBy' | 'disabled' | 'exclude'>;

/** The declared form fields, with type, limits and messages read from the create or update schema. */
export function useFormFields(resource: AnyResource, action: 'create' | 'edit'): FormField[] {
  return useMemo(() => {
    const schemaName: string | undefined =
      action === 'create' ? resource.schemas.create : (resource.schemas.update ?? resource.schemas.create);
    if (!schemaName) return [];
    const input = objectSchema(contractDoc, schemaName);
    const recordSchema = objectSchema(contractDoc, resource.schemas.record);
    return (resource.fields ?? [])
      .filter((f) => input.properties?.[f.field] !== undefined && (!f.only || f.only === action))
      .map((f) => {
        const spec = describeField(contractDoc, schemaName, f.field, { action, recordSchema });
        return {
          spec,
          label: f.label,
          widget: f.widget ?? spec.widget,
          placeholder: f.placeholder,
          help: f.help,
          action,
          check: f.check,
          dependencies: f.dependencies,
          initial: f.initial,
          remote: f.remote,
          enabledBy: f.enabledBy,
          disabled: f.disabled,
          exclude: f.exclude,
        };
      });
  }, [resource, action]);
}

function dateProps(widget: WidgetKind) {
  if (widget === 'date') {
    return {
      getValueProps: (value: unknown) => ({ value: value ? dayjs(String(value)) : undefined }),
      normalize: (value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : null),
    };
  }
  if (widget === 'datetime') {
    return {
      getValueProps: (value: unknown) => ({ value: value ? dayjs(String(value)) : undefined }),
      normalize: (value: Dayjs | null) => (value ? value.toISOString() : null),
    };
  }
  return {};
}

/** A live chip when the form edits both the text and the colour of a `chip-color` column. */
function ChipPreview({ resource, fields }: { resource: AnyResource; fields: FormField[] }) {
  const chip = resource.columns.find((c) => c.render === 'chip-color');
  const names = fields.map((f) => f.spec.name);
  const colorField = chip?.colorField ?? 'color';
  const active = chip !== undefined && names.includes(chip.field) && names.includes(colorField);
  const form = Form.useFormInstance();
  const text = Form.useWatch(chip?.field ?? '', form) as string | undefined;
  const color = Form.useWatch(colorField, form) as string | undefined;
  if (!active) return null;
  return (
    <Form.Item label="Vista previa">
      <ColorChip color={color}>{text?.trim() || `Nombre de la ${resource.labels.singular}`}</ColorChip>
    </Form.Item>
  );
}

/** The body a create or edit form sends: its declared fields, and the declaration's custom part. */
export function formBody(resource: AnyResource, fields: FormField[], values: Record<string, unknown>, action: 'create' | 'edit') {
  const body = toRequestBody(
    fields.map((f) => f.spec),
    values,
  );
  return resource.customFields ? { ...body, ...resource.customFields.toBody(values, action) } : body;
}

/** An edit form's starting values: the record, with the custom part's values taken from it. */
export function formValues(resource: AnyResource, record: Record<string, unknown> | undefined) {
  const toValues = resource.customFields?.toValues;
  return record && toValues ? { ...record, ...toValues(record) } : record;
}

/** Renders the fields of a declaration (and its custom part) inside an antd Form. */
export function CrudFormFields({
  resource,
  fields,
  action,
  autoFocus,
}: {
  resource: AnyResource;
  fields: FormField[];
  action: 'create' | 'edit';
  autoFocus?: boolean;
}) {
  const Custom = resource.customFields?.Fields;
  const values = (Form.useWatch([], { form: Form.useFormInstance(), preserve: true }) ?? {}) as Record<string, unknown>;
  const isDisabled = (f: FormField) => !!f.disabled || (f.enabledBy !== undefined && !values[f.enabledBy]);
  const optionsOf = (f: FormField): FieldSpec =>
    f.exclude ? { ...f.spec, options: f.spec.options?.filter((o) => !f.exclude!.includes(o.value)) } : f.spec;
  return (
    <>
      {fields.map((field, index) => {
        const { spec, label, widget, placeholder, help, action, check, dependencies, initial, remote } = field;
        return (
          <Form.Item
            key={spec.name}
            name={spec.name}
            label={label}
            rules={[
              ...toFormRules(spec),
              ...(check
                ? [
                    ({ getFieldsValue }: { getFieldsValue: (all: true) => Record<string, unknown> }) => ({
                      validator: async (_rule: unknown, value: unknown) => {
                        const problem = check(value, getFieldsValue(true), action);
                        if (problem) throw new Error(problem);
                      },
                    }),
                  ]
                : []),
            ]}
            dependencies={dependencies}
            initialValue={action === 'create' ? initial : undefined}
            extra={help}
            valuePropName={widget === 'switch' ? 'checked' : 'value'}
            validateFirst
            {...dateProps(widget)}
          >
            <FieldInput
              spec={optionsOf(field)}
              widget={widget}
              placeholder={placeholder}
              remote={remote}
              autoFocus={autoFocus && index === 0}
              disabled={isDisabled(field) || undefined}
            />
          </Form.Item>
        );
      })}
      {Custom && (
        <Suspense fallback={<Skeleton active />}>
          <Custom action={action} />
        </Suspense>
      )}
      <ChipPreview resource={resource} fields={fields} />
    </>
  );
}

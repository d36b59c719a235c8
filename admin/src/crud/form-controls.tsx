import { useEffect, useRef, type Ref } from 'react';
import { Radio, Select as AntdSelect, type SelectProps } from 'antd';

type SelectRef = { nativeElement?: HTMLElement | null };

/**
 * antd's Select for forms. Form.Item marks a required field's control `aria-required`, and antd 5's
 * Select copies it onto its combobox input and onto its outer box, where ARIA does not allow it
 * (axe aria-allowed-attr, critical; antd issue 46030, fixed in antd 6; rc-select overrides the
 * `omitDomProps` that would leave it out). This one keeps the attribute off the props and sets it on
 * the combobox input itself (issue 19).
 */
function FormSelect({
  'aria-required': required,
  ref: outer,
  ...props
}: SelectProps & { 'aria-required'?: boolean | 'true' | 'false'; ref?: Ref<SelectRef> }) {
  const own = useRef<SelectRef | null>(null);
  // Form.Item passes a ref of its own (React 19: a prop): both see the Select.
  const ref = (node: SelectRef | null) => {
    own.current = node;
    if (typeof outer === 'function') outer(node);
    else if (outer) (outer as { current: SelectRef | null }).current = node;
  };
  useEffect(() => {
    const input = own.current?.nativeElement?.querySelector('input');
    if (!input) return;
    if (required === true || required === 'true') input.setAttribute('aria-required', 'true');
    else input.removeAttribute('aria-required');
  });
  return <AntdSelect ref={ref as never} {...props} />;
}

export const Select = FormSelect as unknown as typeof AntdSelect;

/** A role for the radio buttons' box: there Form.Item's `aria-required` is allowed (axe aria-allowed-attr). */
const RADIO_GROUP: object = { role: 'radiogroup' };

/** antd's Radio.Group as a `radiogroup` (issue 19). */
export const RadioGroup = ((props: object) => <Radio.Group {...RADIO_GROUP} {...props} />) as unknown as typeof Radio.Group;

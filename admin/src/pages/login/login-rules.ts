/**
 * An antd rule from a shared validator (contract/rules/validation.ts): the sign-in, the recovery
 * dialog and the new-password page all check their fields with the contract's own rules.
 */
export const fromValidator = (validate: (value: string) => string | null) => ({
  validator: async (_: unknown, value: string | undefined) => {
    const message = validate(value ?? '');
    if (message) throw new Error(message);
  },
});

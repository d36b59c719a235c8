import contract from '../../../openapi.yaml';

/** The parsed contract; the generic screens read field rules and list parameters from it. */
export const contractDoc = contract;

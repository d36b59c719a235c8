/** Screens not built yet: each gets the shared placeholder until its issue replaces it. */
export const PLACEHOLDER_SECTIONS: { path: string; title: string }[] = [{ path: '/parameters', title: 'Parámetros' }];

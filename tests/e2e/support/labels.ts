/**
 * Staff login labels. The spec writes 'Correo Electronico'; D2 corrects it to 'Correo electrónico'.
 * Either spelling passes, nothing else does.
 */
export const EMAIL_LABEL = /^\s*Correo electr[oó]nico\s*\*?\s*$/i;
export const PASSWORD_LABEL = /^\s*Contraseña\s*\*?\s*$/;

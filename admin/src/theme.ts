import type { ThemeConfig } from 'antd';

/**
 * The staff app's colours in one table (issue 19, WCAG 2.2 AA 1.4.3). Every colour antd draws text
 * in reaches 4.5:1 on the background it draws it on: antd's defaults do not (secondary grey text
 * 3.36:1, placeholders and disabled values 1.83:1, the amber warning tag 1.82:1, the light backgrounds it derives from
 * darker seeds). theme.test.ts measures each pair on antd's computed tokens.
 */
export const COLORS = {
  primary: '#0e7c7b',
  deep: '#0a4d68',
  mint: '#7ee0c9',
  /** Light brand tint: the selected menu entry and option backgrounds. */
  primaryBg: '#e0f2ef',
  primaryText: '#0a5f5e',
  /**
   * Under the pointer, a colour is a step darker, never lighter: antd derives lighter hover shades
   * (#258a85 for the primary, 4.15:1 on white: the tab under the pointer failed axe at 390 px).
   */
  primaryHover: '#0b6766',
  info: '#0a6fa8',
  infoBg: '#e6f4fa',
  infoBorder: '#91caff',
  success: '#2e7d32',
  successBg: '#edf7ed',
  successBorder: '#a5d6a7',
  /** A dark amber: #faad14 (antd's) is 1.9:1 as text and under white text. */
  warning: '#9a5b00',
  warningBg: '#fff8e1',
  warningBorder: '#ffd666',
  error: '#c62828',
  errorHover: '#a82020',
  link: '#0b6e8c',
  linkHover: '#095a73',
  infoHover: '#085b8a',
  successHover: '#256a29',
  warningHover: '#7a4800',
  /**
   * Muted text (descriptions, labels, captions, placeholders, disabled values, empty tables), and
   * the grey behind white text (avatar initials, a switch turned off): 5.3:1 on white, 4.9:1 on
   * the grey of the page and of disabled fields.
   */
  textMuted: '#6b6b6b',
  /** A switch turned off, under the pointer. */
  textMutedHover: '#595959',
} as const;

/**
 * antd's preset tag colours draw their text in shade 7 on shade 1; for these hues shade 7 is under
 * 4.5:1 (gold 2.8, lime 2.5, green 3.4, orange 3.3, cyan 3.4, volcano 4.4, yellow 2.1), so their
 * text takes a darker shade of the same hue (shade 8 or 9 of antd's palette).
 */
const PRESET_TEXT = {
  gold7: '#874d00',
  orange7: '#ad4e00',
  green7: '#237804',
  cyan7: '#006d75',
  volcano7: '#ad2102',
  lime7: '#3f6600',
  yellow7: '#876800',
} as const;

export const theme: ThemeConfig = {
  token: {
    colorPrimary: COLORS.primary,
    colorPrimaryBg: COLORS.primaryBg,
    colorPrimaryHover: COLORS.primaryHover,
    colorPrimaryTextHover: COLORS.primaryHover,
    colorInfo: COLORS.info,
    colorInfoBg: COLORS.infoBg,
    colorInfoBorder: COLORS.infoBorder,
    colorSuccess: COLORS.success,
    colorSuccessBg: COLORS.successBg,
    colorSuccessBorder: COLORS.successBorder,
    colorWarning: COLORS.warning,
    colorWarningBg: COLORS.warningBg,
    colorWarningBorder: COLORS.warningBorder,
    colorError: COLORS.error,
    colorErrorHover: COLORS.errorHover,
    colorErrorTextHover: COLORS.errorHover,
    colorInfoHover: COLORS.infoHover,
    colorInfoTextHover: COLORS.infoHover,
    colorSuccessHover: COLORS.successHover,
    colorSuccessTextHover: COLORS.successHover,
    colorWarningHover: COLORS.warningHover,
    colorWarningTextHover: COLORS.warningHover,
    colorLink: COLORS.link,
    colorLinkHover: COLORS.linkHover,
    colorTextTertiary: COLORS.textMuted,
    colorTextDescription: COLORS.textMuted,
    colorTextPlaceholder: COLORS.textMuted,
    colorTextDisabled: COLORS.textMuted,
    ...PRESET_TEXT,
    borderRadius: 8,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { siderBg: '#ffffff', headerBg: '#ffffff', bodyBg: '#f4f7f8' },
    Menu: { itemSelectedBg: COLORS.primaryBg, itemSelectedColor: COLORS.primaryText },
    // The 'Sí'/'No' inside a switch is white on this grey (antd: #bfbfbf, 1.8:1).
    Switch: { colorTextQuaternary: COLORS.textMuted, colorTextTertiary: COLORS.textMutedHover },
  },
};

/**
 * The theme for a person who asked their system for less motion (prefers-reduced-motion: reduce,
 * WCAG 2.3.3): antd's dialogs, drawers, menus and messages appear without zooming or sliding.
 */
const stillTheme: ThemeConfig = { ...theme, token: { ...theme.token, motion: false } };
export function themeFor(reducedMotion: boolean): ThemeConfig {
  return reducedMotion ? stillTheme : theme;
}

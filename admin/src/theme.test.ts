import { describe, expect, it } from 'vitest';
import { theme as antdTheme } from 'antd';
import { PRIORITIES } from '@vigia/contract/rules/charts';
import { FALLBACK_COLOR, TAG_COLORS } from './crud/palette';
import { ACTIVITY_STATUS_COLORS } from './components/order-ui';
import { theme, themeFor } from './theme';

/** WCAG 2.2 contrast ratio of two colours (#rgb, #rrggbb or rgb[a]() over white). */
function contrast(foreground: string, background: string): number {
  const rgb = (color: string): number[] => {
    const fn = /^rgba?\(([^)]+)\)$/.exec(color.trim());
    if (fn) {
      const [r, g, b, a = 1] = fn[1].split(',').map(Number);
      return [r, g, b].map((c) => c * a + 255 * (1 - a));
    }
    const hex = color.replace('#', '');
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  };
  const luminance = (color: string) => {
    const [r, g, b] = rgb(color).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

const AA_TEXT = 4.5;

describe('colour contrast of the staff theme (issue 19, WCAG 1.4.3)', () => {
  const token = antdTheme.getDesignToken(theme);
  type Key = keyof typeof token;
  const pairs: Array<[string, Key, Key]> = [
    ['secondary text on cards', 'colorTextDescription', 'colorBgContainer'],
    ['secondary text on the page', 'colorTextDescription', 'colorBgLayout'],
    ['description labels', 'colorTextTertiary', 'colorBgContainer'],
    ['text of type secondary', 'colorTextSecondary', 'colorBgContainer'],
    ['placeholders', 'colorTextPlaceholder', 'colorBgContainer'],
    ['placeholders and values of disabled fields', 'colorTextPlaceholder', 'colorBgContainerDisabled'],
    ['disabled values and empty tables', 'colorTextDisabled', 'colorBgContainerDisabled'],
    ['empty tables', 'colorTextDisabled', 'colorBgContainer'],
    ['avatar initials', 'colorTextLightSolid', 'colorTextPlaceholder'],
    ['success tag', 'colorSuccess', 'colorSuccessBg'],
    ['warning tag', 'colorWarning', 'colorWarningBg'],
    ['error tag', 'colorError', 'colorErrorBg'],
    ['processing tag', 'colorInfo', 'colorInfoBg'],
    ['warning text', 'colorWarningText', 'colorWarningBg'],
    ['error text', 'colorErrorText', 'colorErrorBg'],
    ['links', 'colorLink', 'colorBgContainer'],
    ['primary buttons', 'colorTextLightSolid', 'colorPrimary'],
    ['danger buttons', 'colorTextLightSolid', 'colorError'],
    ['primary text', 'colorPrimary', 'colorBgContainer'],
    // The same under the pointer (a tab, a link, a text button, a button's fill).
    ['primary text under the pointer', 'colorPrimaryHover', 'colorBgContainer'],
    ['primary text of type text under the pointer', 'colorPrimaryTextHover', 'colorBgContainer'],
    ['primary buttons under the pointer', 'colorTextLightSolid', 'colorPrimaryHover'],
    ['links under the pointer', 'colorLinkHover', 'colorBgContainer'],
    ['danger text buttons under the pointer', 'colorErrorHover', 'colorBgContainer'],
    ['danger buttons under the pointer', 'colorTextLightSolid', 'colorErrorHover'],
    ['error text under the pointer', 'colorErrorTextHover', 'colorErrorBg'],
    ['warning text under the pointer', 'colorWarningTextHover', 'colorWarningBg'],
    ['info text under the pointer', 'colorInfoTextHover', 'colorInfoBg'],
    ['success text under the pointer', 'colorSuccessTextHover', 'colorSuccessBg'],
    ['warning buttons under the pointer', 'colorTextLightSolid', 'colorWarningHover'],
    ['info buttons under the pointer', 'colorTextLightSolid', 'colorInfoHover'],
    ['success buttons under the pointer', 'colorTextLightSolid', 'colorSuccessHover'],
  ];
  it.each(pairs)('%s: %s on %s', (_, fg, bg) => {
    expect(contrast(String(token[fg]), String(token[bg]))).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it("the 'Sí'/'No' of a switch turned off, also under the pointer", () => {
    const off = theme.components?.Switch as { colorTextQuaternary: string; colorTextTertiary: string };
    expect(contrast(String(token.colorTextLightSolid), off.colorTextQuaternary)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(String(token.colorTextLightSolid), off.colorTextTertiary)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('the selected menu entry', () => {
    const menu = theme.components?.Menu as { itemSelectedColor: string; itemSelectedBg: string };
    expect(contrast(menu.itemSelectedColor, menu.itemSelectedBg)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(['gold', 'orange', 'green', 'cyan', 'volcano', 'lime', 'yellow', 'blue', 'geekblue', 'purple', 'red', 'magenta'] as const)(
    "antd's preset tag colour %s: its text (shade 7) on its background (shade 1)",
    (color) => {
      expect(contrast(String(token[`${color}7`]), String(token[`${color}1`]))).toBeGreaterThanOrEqual(AA_TEXT);
    },
  );

  it.each(Object.entries({ ...TAG_COLORS, fallback: FALLBACK_COLOR }))('the tag chip %s', (_, { background, text }) => {
    expect(contrast(text, background)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(Object.entries(PRIORITIES))('white text on the priority %s colour', (_, { color }) => {
    expect(contrast('#ffffff', color)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(Object.entries(ACTIVITY_STATUS_COLORS))('white text on the activity status %s colour', (_, color) => {
    expect(contrast('#ffffff', color)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('measures what WCAG measures', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(3.35, 2);
  });
});

describe('reduced motion (WCAG 2.3.3)', () => {
  it.each([
    [false, true, '0.3s'],
    [true, false, '0s'],
  ])('prefers-reduced-motion %s: antd motion %s, slow motion lasts %s, the same colours', (reduced, motion, slow) => {
    const token = antdTheme.getDesignToken(themeFor(reduced));
    expect(token.motion).toBe(motion);
    expect(token.motionDurationSlow).toBe(slow);
    const colours = (t: object) => Object.fromEntries(Object.entries(t).filter(([k]) => k.startsWith('color')));
    expect(colours(token)).toEqual(colours(antdTheme.getDesignToken(theme)));
  });
});

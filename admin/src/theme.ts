import type { ThemeConfig } from 'antd';

const BRAND = {
  primary: '#0e7c7b',
  deep: '#0a4d68',
  mint: '#7ee0c9',
} as const;

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    colorInfo: '#0a6fa8',
    colorSuccess: '#2e7d32',
    colorError: '#c62828',
    colorLink: '#0b6e8c',
    borderRadius: 8,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { siderBg: '#ffffff', headerBg: '#ffffff', bodyBg: '#f4f7f8' },
    Menu: { itemSelectedBg: '#e0f2ef', itemSelectedColor: '#0a5f5e' },
  },
};

import { ManOutlined, UserOutlined, WomanOutlined } from '@ant-design/icons';

/**
 * Avatar by gender (01 §2): Masculino 1, Femenino 0, anything else neutral. A circle of its own,
 * drawn as antd's Avatar drew an icon (the icon at half the size, white): the patient page loaded
 * antd's Avatar for this alone (issue 52, its weight before the charts).
 */
export function PatientAvatar({ gender, size = 48 }: { gender: number; size?: number }) {
  const look =
    gender === 1
      ? { icon: <ManOutlined />, background: '#1565c0', label: 'Masculino' }
      : gender === 0
        ? { icon: <WomanOutlined />, background: '#ad1457', label: 'Femenino' }
        : { icon: <UserOutlined />, background: '#6d4c41', label: 'Otro' };
  return (
    <span role="img" aria-label={`Género: ${look.label}`} style={{ display: 'inline-flex', flex: 'none' }}>
      <span className="vigia-avatar patient-avatar" style={{ width: size, height: size, fontSize: size / 2, background: look.background }}>
        {look.icon}
      </span>
    </span>
  );
}

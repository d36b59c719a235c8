import { Avatar } from 'antd';
import { ManOutlined, UserOutlined, WomanOutlined } from '@ant-design/icons';

/** Avatar by gender (01 §2): Masculino 1, Femenino 0, anything else neutral. */
export function PatientAvatar({ gender, size = 48 }: { gender: number; size?: number }) {
  const look =
    gender === 1
      ? { icon: <ManOutlined />, background: '#1565c0', label: 'Masculino' }
      : gender === 0
        ? { icon: <WomanOutlined />, background: '#ad1457', label: 'Femenino' }
        : { icon: <UserOutlined />, background: '#6d4c41', label: 'Otro' };
  return (
    <span role="img" aria-label={`Género: ${look.label}`} style={{ display: 'inline-flex', flex: 'none' }}>
      <Avatar size={size} icon={look.icon} style={{ background: look.background }} />
    </span>
  );
}

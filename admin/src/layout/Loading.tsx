import { Spin } from 'antd';

export function Loading() {
  return (
    <div className="vigia-boot" role="status" aria-label="Cargando">
      <Spin size="large" />
    </div>
  );
}

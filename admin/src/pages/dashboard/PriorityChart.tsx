import { Column } from '@ant-design/plots';
import type { Schemas } from '../../contract';

/** 'Alertas por Prioridad': bars Bajo, Medio, Alto (02 §2.12). */
export default function PriorityChart({ metrics }: { metrics: Schemas['AlertMetrics'] }) {
  const data = [
    { priority: 'Bajo', total: metrics.by_priority.low },
    { priority: 'Medio', total: metrics.by_priority.medium },
    { priority: 'Alto', total: metrics.by_priority.high },
  ];
  return (
    <Column
      data={data}
      xField="priority"
      yField="total"
      colorField="priority"
      scale={{ color: { domain: ['Bajo', 'Medio', 'Alto'], range: ['#0e7c7b', '#d48806', '#d4380d'] } }}
      legend={false}
      height={260}
      label={{ text: 'total', position: 'inside', style: { fill: '#fff' } }}
      axis={{ x: { title: false }, y: { title: 'Alertas' } }}
    />
  );
}

import { Column } from '@ant-design/plots';
import type { Schemas } from '../../contract';
import { PRIORITY_COLORS } from '../../components/alerts.data';

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
      scale={{ color: { domain: ['Bajo', 'Medio', 'Alto'], range: [PRIORITY_COLORS[3], PRIORITY_COLORS[2], PRIORITY_COLORS[1]] } }}
      legend={false}
      height={260}
      label={{ text: 'total', position: 'inside', style: { fill: '#fff' } }}
      axis={{ x: { title: false }, y: { title: 'Alertas' } }}
    />
  );
}

import { Column, Line } from '@ant-design/plots';
import type { Schemas } from '../../contract';
import { ADHERENCE_BAND_NAMES, adherencePoints, trendPoints } from './indicators';

/** The 12-month trend of the three shares, and the adherence bands per month (issue 21). */
export default function IndicatorCharts({ months }: { months: Schemas['IndicatorMonth'][] }) {
  return (
    <div className="dashboard-indicator-charts">
      <div>
        <h2 className="dashboard-chart-title">Tendencia mensual (%)</h2>
        <Line
          data={trendPoints(months)}
          xField="month"
          yField="value"
          colorField="serie"
          height={260}
          point={{ size: 3 }}
          scale={{ y: { domain: [0, 100] }, color: { range: ['#0e7c7b', '#a8071a', '#1d39c4'] } }}
          axis={{ x: { title: false }, y: { title: '%' } }}
          legend={{ color: { position: 'bottom' } }}
        />
      </div>
      <div>
        <h2 className="dashboard-chart-title">Cumplimiento por mes (pacientes)</h2>
        <Column
          data={adherencePoints(months)}
          xField="month"
          yField="patients"
          colorField="band"
          stack
          height={260}
          scale={{ color: { domain: ADHERENCE_BAND_NAMES, range: ['#a8071a', '#ad6800', '#237804', '#8c8c8c'] } }}
          axis={{ x: { title: false }, y: { title: 'Pacientes' } }}
          legend={{ color: { position: 'bottom' } }}
        />
      </div>
    </div>
  );
}

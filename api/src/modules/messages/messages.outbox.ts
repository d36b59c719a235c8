import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';

export interface OutboundMessage {
  client_id: number;
  patient_id: number;
  /** Free text, or a template (the welcome message) with its parameters. */
  kind: 'text' | 'template';
  body: string;
  template?: string | null;
  /** Why it is sent: shown to staff and used to react to a final failure. */
  reason: 'welcome' | 'reminder' | 'alarm' | 'assistant' | 'staff';
  /** A reminder's activity: it becomes 'Fallida' (4) if the message finally cannot be delivered (D11). */
  activity_id?: number | null;
  /** The assistant wrote it (shown with the AI marker). */
  ai?: boolean;
}

/**
 * Queues a message to the patient through the messaging channel, durably (sent by a job, retried).
 * Owner: messaging work; this placeholder is replaced there.
 */
export async function queueOutboundMessage(
  _ctx: { sequelize: Sequelize; transaction?: Transaction; now: Date; jobs: JobRunner },
  _message: OutboundMessage,
): Promise<number> {
  throw new Error('queueOutboundMessage: pendiente de implementar');
}

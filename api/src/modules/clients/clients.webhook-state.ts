import type { Sequelize } from 'sequelize';
import { execute } from '../../db/sql.js';

/**
 * The webhook state kept on the client row (validated, the failure streak, why it was switched
 * off). The clients module writes the clients table; the webhooks module asks through these,
 * handed in by the composition root (app.ts).
 */
export interface ClientWebhookState {
  /** 'Validar' succeeded: on again, unless the URL or phrase changed meanwhile. */
  markValidated(sequelize: Sequelize, client: { id: number; url: string; phrase: string }): Promise<void>;
  /** One more failed attempt on the streak; the streak's start is kept. */
  countFailure(sequelize: Sequelize, clientId: number, now: Date): Promise<void>;
  /** Kept failing: switched off with a reason the client's screen shows. */
  switchOff(sequelize: Sequelize, clientId: number, now: Date, reason: string): Promise<void>;
  /** A delivery got through: the streak ends. */
  clearFailures(sequelize: Sequelize, clientId: number): Promise<void>;
}

export const clientWebhookState: ClientWebhookState = {
  async markValidated(sequelize, c) {
    await execute(
      sequelize,
      `UPDATE clients SET webhook_validated = :on, webhook_disabled_at = NULL, webhook_disabled_reason = NULL WHERE id = :id AND webhook_url = :url AND security_phrase = :phrase`,
      { on: true, id: c.id, url: c.url, phrase: c.phrase },
    );
  },
  async countFailure(sequelize, clientId, now) {
    await execute(
      sequelize,
      'UPDATE clients SET webhook_failures = webhook_failures + 1, webhook_failing_since = COALESCE(webhook_failing_since, :now) WHERE id = :id',
      { id: clientId, now },
    );
  },
  async switchOff(sequelize, clientId, now, reason) {
    await execute(
      sequelize,
      'UPDATE clients SET webhook_validated = :off, webhook_disabled_at = :now, webhook_disabled_reason = :reason WHERE id = :id',
      { off: false, now, reason, id: clientId },
    );
  },
  async clearFailures(sequelize, clientId) {
    await execute(
      sequelize,
      'UPDATE clients SET webhook_failures = 0, webhook_failing_since = NULL WHERE id = :id AND webhook_failures > 0',
      {
        id: clientId,
      },
    );
  },
};
